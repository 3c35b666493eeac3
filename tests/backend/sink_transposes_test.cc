#include "backend/sink_transposes.h"

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "backend/boundary_layout.h"
#include "interpreter/interpreter.h"
#include "ir/printer.h"
#include "ir/visitor.h"
#include "runtime/compare.h"

namespace collage {
namespace {

using testing::ParseMainFunction;

int CountCalls(const Function& function, std::string_view op_name) {
  int count = 0;
  for (const Expr& expr : PostOrder(function->body)) count += AsCallOf(expr, op_name) != nullptr;
  return count;
}

// Whether `rewritten` computes what `original` does on seeded random inputs.
::testing::AssertionResult SameValues(const Function& rewritten, const Function& original) {
  const std::vector<Value> args = RandomArguments(original, 7);
  const Comparison comparison = CompareValues(Evaluate(rewritten, args), Evaluate(original, args));
  if (comparison.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << comparison.first_mismatch;
}

TEST(SinkTransposesTest, ChannelsLastElementWiseChainHasNoTransposeLeft) {
  // SiLU and a bias: what a channels-last partition between two convolutions computes.
  const Function function = ParseMainFunction(R"(
def @main(%x: Tensor[(1, 6, 5, 4), f32], %b: Tensor[(6), f32]) {
  %0 = nn.bias_add(%x, %b, axis=1)
  %1 = sigmoid(%0)
  multiply(%0, %1)
}
)");
  const Function channels_last = WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast));
  const Function plain_body = SinkTransposes(WithPlainBody(channels_last));
  EXPECT_EQ(CountCalls(plain_body, "transpose"), 0) << PrintExpr(plain_body);
  for (const Expr& expr : PostOrder(plain_body->body)) {
    if (const CallNode* bias_add = AsCallOf(expr, "nn.bias_add")) {
      EXPECT_EQ(bias_add->attrs.GetInt("axis"), 3);
    }
  }
  // The same values, read and written channels-last.
  const Function transposed_original = ParseMainFunction(R"(
def @main(%x: Tensor[(1, 5, 4, 6), f32], %b: Tensor[(6), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  %1 = nn.bias_add(%0, %b, axis=1)
  %2 = sigmoid(%1)
  %3 = multiply(%1, %2)
  transpose(%3, axes=[0, 2, 3, 1])
}
)");
  EXPECT_TRUE(SameValues(plain_body, transposed_original));
}

TEST(SinkTransposesTest, BroadcastOperandsPermutedAlikeOrHoldingOneValue) {
  // A squeeze-and-excitation gate (both operands transposed alike) and a scalar.
  const Function function = ParseMainFunction(R"(
def @main(%x: Tensor[(2, 5, 4, 6), f32], %s: Tensor[(2, 1, 1, 6), f32], %k: Tensor[(1), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  %1 = transpose(%s, axes=[0, 3, 1, 2])
  %2 = multiply(%0, sigmoid(%1))
  %3 = add(%2, %k)
  transpose(%3, axes=[0, 2, 3, 1])
}
)");
  const Function sunk = SinkTransposes(function);
  EXPECT_EQ(CountCalls(sunk, "transpose"), 0) << PrintExpr(sunk);
  EXPECT_TRUE(SameValues(sunk, function));
}

TEST(SinkTransposesTest, StaysWhereItCannotMove) {
  // A convolution needs its input transposed; an operand broadcast along one axis only, not
  // transposed, and two different permutations keep their transposes.
  const Function function = ParseMainFunction(R"(
def @main(%x: Tensor[(1, 5, 4, 6), f32], %w: Tensor[(3, 6, 1, 1), f32], %c: Tensor[(1, 6, 1, 1), f32],
          %y: Tensor[(1, 4, 5, 6), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  %1 = nn.conv2d(%0, %w)
  %2 = multiply(%0, %c)
  %3 = transpose(%y, axes=[0, 3, 2, 1])
  %4 = add(%0, %3)
  (%1, %2, %4)
}
)");
  const Function sunk = SinkTransposes(function);
  EXPECT_EQ(CountCalls(sunk, "transpose"), 2) << PrintExpr(sunk);
  EXPECT_TRUE(SameValues(sunk, function));
}

TEST(SinkTransposesTest, ComposesConsecutiveTransposes) {
  const Function function = ParseMainFunction(R"(
def @main(%x: Tensor[(2, 3, 4, 5), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  %1 = nn.relu(%0)
  transpose(%1, axes=[3, 1, 0, 2])
}
)");
  const Function sunk = SinkTransposes(function);
  EXPECT_EQ(CountCalls(sunk, "transpose"), 1) << PrintExpr(sunk);
  EXPECT_TRUE(SameValues(sunk, function));
  for (const Expr& expr : PostOrder(sunk->body)) {
    if (const CallNode* transpose = AsCallOf(expr, "transpose")) {
      EXPECT_EQ(transpose->attrs.GetInts("axes"), (std::vector<int64_t>{2, 3, 0, 1}));
    }
  }
}

TEST(SinkTransposesTest, ComparisonSeesAWrongPermutation) {
  // Negative control of SameValues: the last transpose's inverse permutation differs.
  const Function right = ParseMainFunction(R"(
def @main(%x: Tensor[(2, 3, 3, 3), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  transpose(nn.relu(%0), axes=[0, 2, 3, 1])
}
)");
  const Function wrong = ParseMainFunction(R"(
def @main(%x: Tensor[(2, 3, 3, 3), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  transpose(nn.relu(%0), axes=[0, 3, 1, 2])
}
)");
  EXPECT_FALSE(SameValues(SinkTransposes(wrong), right));
  EXPECT_TRUE(SameValues(SinkTransposes(right), right));
}

TEST(SinkTransposesTest, SqueezeExcitationReadsChannelsLast) {
  const Function function = ParseMainFunction(R"(
def @main(%x: Tensor[(2, 3, 5, 7), f32], %w: Tensor[(2, 7, 1, 1), f32], %b: Tensor[(2), f32],
          %v: Tensor[(7, 2, 1, 1), f32], %c: Tensor[(7), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  %1 = nn.squeeze_excitation(%0, %w, %b, %v, %c, activation="silu")
  transpose(%1, axes=[0, 2, 3, 1])
}
)");
  const Function sunk = SinkTransposes(function);
  EXPECT_EQ(CountCalls(sunk, "transpose"), 0) << PrintExpr(sunk);
  EXPECT_EQ(As<CallNode>(sunk->body)->attrs.GetString("layout"), "NHWC");
  EXPECT_TRUE(SameValues(sunk, function));
}

TEST(SinkTransposesTest, OpsWithAxisAttributesKeepTheirTransposes) {
  const Function function = ParseMainFunction(R"(
def @main(%x: Tensor[(1, 5, 4, 6), f32]) {
  %0 = transpose(%x, axes=[0, 3, 1, 2])
  %1 = broadcast_to(%0, shape=[2, 6, 5, 4])
  transpose(%1, axes=[0, 2, 3, 1])
}
)");
  const Function sunk = SinkTransposes(function);
  EXPECT_EQ(sunk, function);
}

}  // namespace
}  // namespace collage
