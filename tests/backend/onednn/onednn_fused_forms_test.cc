// The decomposed forms oneDNN fuses (layer norm, GELU, SiLU, hard-swish; SiLU after a
// convolution or product as the swish post-op), on torch's own exports of the modules: the
// partition lowers to the fused primitives and matches the reference interpreter on the ops
// the primitives replace.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/flat_partition.h"
#include "backend/library_test_util.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/partition_lowering.h"
#include "backend/onednn/pattern_table.h"
#include "frontend/onnx/onnx_test_support.h"
#include "pass/fused_forms/decomposed_forms.h"
#include "pattern/pattern_matcher.h"

namespace collage {
namespace {

using testing::MatchesReference;

// The kinds of the primitives the partition lowers to, in order (reorders left out).
std::vector<std::string> PrimitiveKinds(const Function& function) {
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(FuseDecomposedFormsInPartition(function, onednn::FusedForms()), "onednn"),
                             dnnl::engine(dnnl::engine::kind::cpu, 0));
  std::vector<std::string> kinds;
  for (const onednn::Step& step : program.steps) {
    const std::string kind = onednn::KindName(step.primitive);
    if (kind != "reorder") kinds.push_back(kind);
  }
  return kinds;
}

struct FusedBlockCase {
  std::string block;
  std::vector<std::string> primitive_kinds;
};

class OnednnFusedFormsTest : public ::testing::TestWithParam<FusedBlockCase> {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
    std::string why;
    dir_ = testing::TorchBlockDir(&why);
    if (dir_.empty()) GTEST_SKIP() << why;
  }
  BackendPtr backend_;
  std::filesystem::path dir_;
};

TEST_P(OnednnFusedFormsTest, LowersToFusedPrimitivesAndMatchesReference) {
  const FusedBlockCase& test_case = GetParam();
  const Function main = ImportOnnxFile((dir_ / (test_case.block + ".onnx")).string()).module.main();
  EXPECT_EQ(PrimitiveKinds(main), test_case.primitive_kinds);
  // Tighter than the default: the GELU approximations differ by about 1e-4 of the output.
  EXPECT_TRUE(MatchesReference(*backend_, main, 0, 2, Tolerance{1e-5}));
}

INSTANTIATE_TEST_SUITE_P(
    TorchBlocks, OnednnFusedFormsTest,
    ::testing::Values(FusedBlockCase{"layer_norm", {"layer_normalization"}},
                      FusedBlockCase{"layer_norm_no_affine", {"layer_normalization"}},
                      FusedBlockCase{"gelu_erf", {"eltwise"}}, FusedBlockCase{"gelu_tanh", {"eltwise"}},
                      FusedBlockCase{"silu", {"eltwise"}}, FusedBlockCase{"hard_swish", {"eltwise"}},
                      // The product with its bias and the residual add as post-ops, then the norm.
                      FusedBlockCase{"bias_residual_layer_norm", {"matmul", "layer_normalization"}}),
    [](const ::testing::TestParamInfo<FusedBlockCase>& info) { return info.param.block; });

// EfficientNet's convolution + bias + SiLU: one convolution with the swish post-op, and the
// pattern table offers the four calls as one candidate.
TEST(OnednnFusedForms, ConvolutionSiluIsOneConvolution) {
  const BackendPtr backend = BackendRegistry::Global().Find("onednn");
  if (!backend) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  const Function function = testing::ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 8, 10, 10), f32]) {
  %0 = constant(meta[0], Tensor[(16, 8, 3, 3), f32])
  %1 = constant(meta[1], Tensor[(16), f32])
  %2 = nn.bias_add(nn.conv2d(%x, %0, padding=[1, 1, 1, 1]), %1)
  multiply(%2, sigmoid(%2))
}
)",
                                                                   {{16, 8, 3, 3}, {16}});
  EXPECT_EQ(PrimitiveKinds(function), std::vector<std::string>{"convolution"});
  EXPECT_TRUE(MatchesReference(*backend, function, 0, 2, Tolerance{1e-5}));
  size_t largest = 0;
  for (const BackendPattern& entry : backend->Support().patterns) {
    if (entry.label != "onednn.conv2d_silu") continue;
    for (const PatternMatch& match : FindAllMatches(entry.pattern, function, entry.predicate)) {
      largest = std::max(largest, match.inside.size());
    }
  }
  EXPECT_EQ(largest, 4u);
}

}  // namespace
}  // namespace collage
