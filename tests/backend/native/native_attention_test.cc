// The native fused masked-softmax and attention kernels against the reference interpreter on
// the decomposed ops they replace, written as torch exports them (head splits by reshape and
// transpose, a scale, an additive or select mask, softmax, the head merge): the native backend
// fuses them into nn.masked_softmax / nn.attention and plans one kernel, its output matches
// the reference of the decomposed ops relative to the output's magnitude, and the same
// comparison fails for a wrong scale or a perturbed mask (the negative controls). Key sequences
// over the attention kernel's limit stay decomposed.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/native/execution_planner.h"
#include "backend/native/native_backend.h"
#include "backend/native/native_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/op_registry.h"
#include "ir/visitor.h"
#include "pass/fused_forms/decomposed_forms.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"
#include "testing/fused_form_text.h"

namespace collage {
namespace {

using testing::AttentionShape;
using testing::AttentionText;
using testing::MaskedSoftmaxText;
using testing::MaskKind;
using testing::SoftmaxShape;

size_t CountCalls(const Function& function, const std::string& op) {
  size_t count = 0;
  for (const Expr& node : PostOrder(function->body)) {
    const auto* call = As<CallNode>(node);
    if (call != nullptr && call->op() != nullptr && call->op()->name == op) ++count;
  }
  return count;
}

Function NativeFused(const Function& function) {
  return FuseDecomposedFormsInPartition(function, NativeFusedForms(), NativeFormConditions());
}

Comparison CompareWithReference(const Value& actual, const Function& function, const std::vector<Value>& args) {
  return CompareValues(actual, Evaluate(function, args));
}

// `args` with element `index` of the mask (the last argument) flipped (bool) or raised by 2.
std::vector<Value> WithPerturbedMask(std::vector<Value> args, int64_t index) {
  Tensor mask = args.back().tensor().Clone();
  const double old_value = mask.GetAsDouble(index);
  mask.SetFromDouble(index, mask.dtype() == DType::kBool ? (old_value == 0.0 ? 1.0 : 0.0) : old_value + 2.0);
  args.back() = Value(mask);
  return args;
}

class NativeAttentionTest : public ::testing::TestWithParam<AttentionShape> {};

TEST_P(NativeAttentionTest, OneKernelMatchesTheDecomposedOps) {
  const AttentionShape& c = GetParam();
  const double divisor = std::sqrt(static_cast<double>(c.depth));
  const Function function = testing::ParseMainFunction(AttentionText(c, divisor));
  const Function fused = NativeFused(function);
  EXPECT_EQ(CountCalls(fused, "nn.attention"), 1u);
  EXPECT_EQ(CountCalls(fused, "nn.softmax"), 0u);
  // The head splits are reshapes of the projections (views) and the merge a reshape of the result.
  EXPECT_EQ(native::PlanFunction(fused).kernels.size(), 1u);

  const std::vector<Value> args = RandomArguments(function, 7);
  const Value actual = testing::RunOnNative(function, args);
  const Comparison comparison = CompareWithReference(actual, function, args);
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  if (c.keys < 2) return;  // one key: softmax gives 1 whatever the scale and mask

  // Negative controls: the same comparison refuses a reference with another scale or mask.
  const Function wrong_scale = testing::ParseMainFunction(AttentionText(c, divisor * 1.05));
  EXPECT_FALSE(CompareWithReference(actual, wrong_scale, args).ok());
  if (c.mask == MaskKind::kNone) return;
  EXPECT_FALSE(CompareWithReference(actual, function, WithPerturbedMask(args, 1)).ok());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NativeAttentionTest,
    ::testing::Values(AttentionShape{"one_token", 1, 2, 1, 1, 8, MaskKind::kSelect},
                      AttentionShape{"odd_sizes_additive_mask", 2, 3, 7, 7, 5, MaskKind::kAdditive},
                      AttentionShape{"odd_sizes_select_mask", 2, 3, 13, 13, 9, MaskKind::kSelect},
                      AttentionShape{"no_mask", 1, 4, 33, 33, 16, MaskKind::kNone},
                      AttentionShape{"rows_over_one_block", 1, 2, 101, 101, 64, MaskKind::kAdditive},
                      AttentionShape{"tokens_512", 1, 2, 512, 512, 16, MaskKind::kSelect}),
    [](const ::testing::TestParamInfo<AttentionShape>& info) { return info.param.name; });

TEST(NativeAttentionLimit, LongerKeySequencesStayDecomposed) {
  const AttentionShape c{"tokens_513", 1, 1, 2, kMaxAttentionKeys + 1, 4, MaskKind::kNone};
  const Function function = testing::ParseMainFunction(AttentionText(c, 2.0));
  const Function fused = NativeFused(function);
  EXPECT_EQ(CountCalls(fused, "nn.attention"), 0u);
  EXPECT_EQ(CountCalls(fused, "nn.matmul"), 2u);
  EXPECT_EQ(CountCalls(fused, "nn.masked_softmax"), 1u);  // the scaled softmax alone still fuses
  // The backend's pattern for attention refuses the candidate as well.
  const BackendPtr backend = BackendRegistry::Global().Find("native");
  const SupportDeclaration support = backend->Support();
  for (const auto& entry : support.patterns) {
    if (entry.label != "native.scaled_dot_product_attention") continue;
    EXPECT_TRUE(FindAllMatches(entry.pattern, function, entry.predicate).empty());
    const AttentionShape within{"tokens_512", 1, 1, 2, kMaxAttentionKeys, 4, MaskKind::kNone};
    EXPECT_EQ(FindAllMatches(entry.pattern, testing::ParseMainFunction(AttentionText(within, 2.0)), entry.predicate)
                  .size(),
              1u);
  }
  EXPECT_TRUE(testing::MatchesReference(*backend, function));
}

class NativeMaskedSoftmaxTest : public ::testing::TestWithParam<SoftmaxShape> {};

TEST_P(NativeMaskedSoftmaxTest, OneKernelMatchesTheDecomposedOps) {
  const SoftmaxShape& c = GetParam();
  const Function function = testing::ParseMainFunction(MaskedSoftmaxText(c, 4.0));
  const Function fused = NativeFused(function);
  EXPECT_EQ(CountCalls(fused, "nn.masked_softmax"), 1u);
  EXPECT_EQ(native::PlanFunction(fused).kernels.size(), 1u);
  const std::vector<Value> args = RandomArguments(function, 3);
  const Value actual = testing::RunOnNative(function, args);
  const Comparison comparison = CompareWithReference(actual, function, args);
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  if (c.shape.back() < 2) return;
  EXPECT_FALSE(CompareWithReference(actual, testing::ParseMainFunction(MaskedSoftmaxText(c, 4.4)), args).ok());
  // A mask constant along the softmax's axis shifts every logit of a row alike: no control.
  if (c.mask == MaskKind::kNone || c.mask_shape.back() == 1) return;
  EXPECT_FALSE(CompareWithReference(actual, function, WithPerturbedMask(args, 0)).ok());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NativeMaskedSoftmaxTest,
    ::testing::Values(SoftmaxShape{"one_token", {1, 2, 1, 1}, {1, 1}, MaskKind::kAdditive},
                      SoftmaxShape{"odd_additive", {2, 3, 7, 7}, {7, 7}, MaskKind::kAdditive},
                      SoftmaxShape{"column_mask", {3, 5, 11}, {5, 1}, MaskKind::kAdditive},
                      SoftmaxShape{"row_mask", {3, 5, 11}, {1, 11}, MaskKind::kAdditive},
                      SoftmaxShape{"full_mask", {2, 5, 9}, {2, 5, 9}, MaskKind::kAdditive},
                      SoftmaxShape{"select", {2, 13, 13}, {13, 13}, MaskKind::kSelect},
                      SoftmaxShape{"scale_only", {4, 17}, {}, MaskKind::kNone},
                      SoftmaxShape{"tokens_512", {1, 2, 512, 512}, {512, 512}, MaskKind::kSelect}),
    [](const ::testing::TestParamInfo<SoftmaxShape>& info) { return info.param.name; });

}  // namespace
}  // namespace collage
