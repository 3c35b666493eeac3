// The native squeeze-and-excitation kernel against the reference interpreter on the decomposed
// ops it replaces (torchvision's block as exported, with relu or SiLU between the layers and a
// sigmoid or hard-sigmoid gate): one kernel, the output within the default tolerance of its
// magnitude, and a reference with another gate refused by the same comparison (the negative
// control).
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/native/execution_planner.h"
#include "backend/native/native_backend.h"
#include "backend/native/native_test_util.h"
#include "interpreter/interpreter.h"
#include "pass/fused_forms/decomposed_forms.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"
#include "testing/fused_form_text.h"

namespace collage {
namespace {

using testing::SqueezeExcitationShape;
using testing::SqueezeExcitationText;

class NativeSqueezeExcitationTest : public ::testing::TestWithParam<SqueezeExcitationShape> {};

TEST_P(NativeSqueezeExcitationTest, OneKernelMatchesTheDecomposedOps) {
  const SqueezeExcitationShape& c = GetParam();
  const Function function = testing::ParseMainFunction(SqueezeExcitationText(c));
  const Function fused = FuseDecomposedFormsInPartition(function, NativeFusedForms());
  EXPECT_EQ(native::PlanFunction(fused).kernels.size(), 1u);
  const std::vector<Value> args = RandomArguments(function, 9);
  const Value actual = testing::RunOnNative(function, args);
  const Comparison comparison = CompareValues(actual, Evaluate(function, args));
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  // The hard gate with another offset; the sigmoid gate as a hard one.
  SqueezeExcitationShape other_gate = c;
  other_gate.hard_gate = true;
  const Function wrong = testing::ParseMainFunction(SqueezeExcitationText(other_gate, c.hard_gate ? 0.6 : 0.5));
  EXPECT_FALSE(CompareValues(actual, Evaluate(wrong, args)).ok());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NativeSqueezeExcitationTest,
    ::testing::Values(SqueezeExcitationShape{"one_pixel", 1, 8, 1, 1, 2, false, false},
                      SqueezeExcitationShape{"odd_relu", 2, 7, 3, 5, 3, false, false},
                      SqueezeExcitationShape{"odd_silu", 3, 13, 9, 7, 5, true, false},
                      SqueezeExcitationShape{"hard_gate", 2, 16, 6, 6, 4, false, true},
                      SqueezeExcitationShape{"efficientnet_stage", 1, 96, 56, 56, 4, true, false}),
    [](const ::testing::TestParamInfo<SqueezeExcitationShape>& info) { return info.param.name; });

}  // namespace
}  // namespace collage
