// The decomposed forms the native generator fuses, on torch's own exports of the modules:
// each block plans as one kernel and matches the reference interpreter on the ops it replaces.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/boundary_layout.h"
#include "backend/native/execution_planner.h"
#include "backend/native/native_backend.h"
#include "backend/sink_transposes.h"
#include "frontend/onnx/onnx_test_support.h"
#include "pass/fused_forms/decomposed_forms.h"

namespace collage {
namespace {

class NativeFusedFormsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("native");
    ASSERT_TRUE(backend_);
    std::string why;
    dir_ = testing::TorchBlockDir(&why);
    if (dir_.empty()) GTEST_SKIP() << why;
  }
  BackendPtr backend_;
  std::filesystem::path dir_;
};

TEST_P(NativeFusedFormsTest, PlansOneKernelAndMatchesReference) {
  const Function main = ImportOnnxFile((dir_ / (GetParam() + ".onnx")).string()).module.main();
  EXPECT_EQ(native::PlanFunction(FuseDecomposedFormsInPartition(main, NativeFusedForms())).kernels.size(), 1u);
  // Tighter than the default: the GELU approximations differ by about 1e-4 of the output.
  EXPECT_TRUE(testing::MatchesReference(*backend_, main, 0, 2, Tolerance{1e-5}));
}

// Channels-last boundaries: the transposes at the edges cancel through the block, which then
// reads and writes channels-last memory in the same one kernel.
using NativeChannelsLastFusedFormsTest = NativeFusedFormsTest;

TEST_P(NativeChannelsLastFusedFormsTest, PlansOneKernelAndMatchesReference) {
  const Function main = WithBoundaryLayouts(ImportOnnxFile((dir_ / (GetParam() + ".onnx")).string()).module.main(),
                                            PartitionLayouts::Uniform(Layout::kChannelsLast));
  const Function planned = SinkTransposes(FuseDecomposedFormsInPartition(WithPlainBody(main), NativeFusedForms()));
  EXPECT_EQ(native::PlanFunction(planned).kernels.size(), 1u);
  EXPECT_TRUE(testing::MatchesReference(*backend_, main, 0, 2, Tolerance{1e-5}));
}

INSTANTIATE_TEST_SUITE_P(TorchBlocks, NativeChannelsLastFusedFormsTest,
                         ::testing::Values("squeeze_excitation", "squeeze_excitation_silu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

INSTANTIATE_TEST_SUITE_P(TorchBlocks, NativeFusedFormsTest,
                         ::testing::Values("layer_norm", "layer_norm_no_affine", "rms_norm", "gelu_erf", "gelu_tanh",
                                           "silu", "hard_swish", "scaled_masked_softmax", "squeeze_excitation",
                                           "squeeze_excitation_silu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace collage
