// The native RMS-norm row kernel against the reference interpreter on the decomposed ops it
// replaces (x * rsqrt(mean(x^2) + epsilon) * gamma, as LLaMA-style code writes it): one kernel,
// the output within the default tolerance of its magnitude, and a reference with another epsilon
// or gamma refused by the same comparison (the negative controls).
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

using testing::RmsNormText;

class NativeRmsNormTest : public ::testing::TestWithParam<std::vector<int64_t>> {};

TEST_P(NativeRmsNormTest, OneKernelMatchesTheDecomposedOps) {
  const std::vector<int64_t>& shape = GetParam();
  const Function function = testing::ParseMainFunction(RmsNormText(shape, "1e-06", 0.01));
  EXPECT_EQ(native::PlanFunction(FuseDecomposedFormsInPartition(function, NativeFusedForms())).kernels.size(), 1u);
  const std::vector<Value> args = RandomArguments(function, 5);
  const Value actual = testing::RunOnNative(function, args);
  const Comparison comparison = CompareValues(actual, Evaluate(function, args));
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  const Function other_epsilon = testing::ParseMainFunction(RmsNormText(shape, "0.1", 0.01));
  EXPECT_FALSE(CompareValues(actual, Evaluate(other_epsilon, args)).ok());
  const Function other_gamma = testing::ParseMainFunction(RmsNormText(shape, "1e-06", 0.02));
  EXPECT_FALSE(CompareValues(actual, Evaluate(other_gamma, args)).ok());
}

INSTANTIATE_TEST_SUITE_P(Shapes, NativeRmsNormTest,
                         ::testing::Values(std::vector<int64_t>{1, 1, 2}, std::vector<int64_t>{3, 7},
                                           std::vector<int64_t>{2, 5, 13}, std::vector<int64_t>{1, 64, 768},
                                           std::vector<int64_t>{512, 33}));

}  // namespace
}  // namespace collage
