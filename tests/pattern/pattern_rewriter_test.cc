// The pattern rewriter: fixed points, the iteration limit, which of overlapping matches is
// rewritten, declining callbacks and replacements that use other replacements.
#include "pattern/pattern_rewriter.h"

#include <gtest/gtest.h>

#include "ir/structural_equal.h"
#include "ir/type_inference.h"
#include "pattern/pattern_test_util.h"

namespace collage {
namespace {

using testing::ConstantOf;
using testing::F32;
using testing::TensorVar;

Expr Relu(const Expr& x) { return CallOp("nn.relu", {x}); }

Expr ReluChain(const Expr& x, int length) {
  Expr current = x;
  for (int i = 0; i < length; ++i) current = Relu(current);
  return current;
}

// How many nn.relu calls are stacked on top of `expr`.
int ReluDepth(Expr expr) {
  int depth = 0;
  while (const CallNode* call = As<CallNode>(expr)) {
    if (call->op() == nullptr || call->op()->name != "nn.relu") break;
    ++depth;
    expr = call->args[0];
  }
  return depth;
}

bool IsAllZeros(const Expr& expr) {
  const ConstantNode* constant = As<ConstantNode>(expr);
  if (constant == nullptr) return false;
  for (int64_t i = 0; i < constant->data.NumElements(); ++i) {
    if (constant->data.GetAsDouble(i) != 0.0) return false;
  }
  return true;
}

// add(x, 0) -> x.
PatternCallback RemoveAddZero() {
  Pattern data = Wildcard();
  Pattern zero = IsConstant();
  return PatternCallback{IsOp("add")(data, zero), [data](const PatternMatch& match) { return match.Get(data); },
                         [zero](const PatternMatch& match) { return IsAllZeros(match.Get(zero)); }};
}

// relu(relu(x)) -> relu(x).
PatternCallback CollapseDoubleRelu() {
  Pattern data = Wildcard();
  return PatternCallback{IsOp("nn.relu")(IsOp("nn.relu")(data)),
                         [data](const PatternMatch& match) { return Expr(Relu(match.Get(data))); }};
}

TEST(PatternRewriterTest, AddZeroChainRewritesToItsInput) {
  Var x = TensorVar("x");
  Expr body = x;
  for (int i = 0; i < 3; ++i) body = CallOp("add", {body, ConstantOf({1, 8}, 0.0f)});
  Expr kept = CallOp("add", {body, ConstantOf({1, 8}, 2.0f)});  // not a zero: stays
  Function function = MakeFunction({x}, kept);
  InferType(function);

  RewritePassResult once = RewritePatternsOnce({RemoveAddZero()}, function);
  EXPECT_EQ(once.replacements, 3);
  Function rewritten = Downcast<FunctionNode>(RewritePatterns({RemoveAddZero()}, function));
  ASSERT_NE(rewritten, nullptr);
  const CallNode* root = As<CallNode>(rewritten->body);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->args[0], x) << "the three zero adds collapse onto x in one pass";
  EXPECT_EQ(root->args[1], As<CallNode>(kept)->args[1]);
  EXPECT_NE(rewritten->body->checked_type(), nullptr) << "a typed input gives a typed result";
  EXPECT_EQ(RewritePatternsOnce({RemoveAddZero()}, rewritten).replacements, 0);
}

TEST(PatternRewriterTest, NonOverlappingMatchesEarliestFirst) {
  Var x = TensorVar("x");
  RewritePassResult pass = RewritePatternsOnce({CollapseDoubleRelu()}, ReluChain(x, 5));
  // Matches at relu2..relu5 overlap; relu2 (relu1, relu2) and relu4 (relu3, relu4) are taken.
  EXPECT_EQ(pass.replacements, 2);
  EXPECT_EQ(ReluDepth(pass.result), 3);
}

TEST(PatternRewriterTest, RepeatsToAFixedPoint) {
  Var x = TensorVar("x");
  // 8 -> 4 -> 2 -> 1 relus: three passes that rewrite and a fourth that finds nothing.
  Expr result = RewritePatterns({CollapseDoubleRelu()}, ReluChain(x, 8), 4);
  EXPECT_TRUE(StructuralEqual(result, Relu(x)));
  EXPECT_EQ(ReluDepth(result), 1);
}

TEST(PatternRewriterTest, IterationLimitIsAnError) {
  Var x = TensorVar("x");
  try {
    RewritePatterns({CollapseDoubleRelu()}, ReluChain(x, 8), 3);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("iteration limit of 3"), std::string::npos) << error.what();
  }
  // A rewrite that always fires never reaches a fixed point.
  Pattern relu = IsOp("nn.relu")(Wildcard());
  PatternCallback wrap{relu, [](const PatternMatch& match) { return Expr(CallOp("tanh", {match.root})); }};
  EXPECT_THROW(RewritePatterns({wrap}, Relu(x)), Error);
  EXPECT_THROW(RewritePatterns({wrap}, Relu(x), 0), Error);
}

TEST(PatternRewriterTest, AReplacementMayUseItsOwnRoot) {
  Var x = TensorVar("x");
  Pattern relu = IsOp("nn.relu")(Wildcard());
  PatternCallback wrap{relu, [](const PatternMatch& match) { return Expr(CallOp("tanh", {match.root})); }};
  RewritePassResult pass = RewritePatternsOnce({wrap}, Relu(x));
  EXPECT_EQ(pass.replacements, 1);
  EXPECT_TRUE(StructuralEqual(pass.result, CallOp("tanh", {Relu(x)})));
}

TEST(PatternRewriterTest, LargerMatchesWinOverSmallerOnes) {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Expr conv = CallOp("nn.conv2d", {x, ConstantOf({4, 3, 3, 3})});
  Expr relu = Relu(CallOp("add", {conv, ConstantOf({1, 4, 1, 1})}));
  Pattern data = Wildcard();
  Pattern conv_bias = IsOp("add")(IsOp("nn.conv2d")(data, IsConstant()), IsConstant());
  PatternCallback fuse{IsOp("nn.relu")(conv_bias).Optional(),
                       [data](const PatternMatch& match) { return Expr(CallOp("sigmoid", {match.Get(data)})); }};
  RewritePassResult pass = RewritePatternsOnce({fuse}, relu);
  EXPECT_EQ(pass.replacements, 1);
  // The conv + bias + relu match is taken, not the conv + bias one under it.
  EXPECT_TRUE(StructuralEqual(pass.result, CallOp("sigmoid", {x})));
}

TEST(PatternRewriterTest, EarlierCallbacksHavePriorityAndCallbacksMayDecline) {
  Var x = TensorVar("x");
  Expr relu = Relu(x);
  Pattern any_relu = IsOp("nn.relu")(Wildcard());
  int declined = 0;
  PatternCallback decline{any_relu, [&declined](const PatternMatch&) {
                            ++declined;
                            return Expr();
                          }};
  PatternCallback to_tanh{any_relu, [](const PatternMatch& match) { return Expr(CallOp("tanh", {match.inputs[0]})); }};
  PatternCallback to_sigmoid{any_relu,
                             [](const PatternMatch& match) { return Expr(CallOp("sigmoid", {match.inputs[0]})); }};

  RewritePassResult nothing = RewritePatternsOnce({decline}, relu);
  EXPECT_EQ(nothing.replacements, 0);
  EXPECT_EQ(nothing.result, relu);
  EXPECT_EQ(declined, 1);

  RewritePassResult first_wins = RewritePatternsOnce({decline, to_tanh, to_sigmoid}, relu);
  EXPECT_EQ(first_wins.replacements, 1);
  EXPECT_TRUE(StructuralEqual(first_wins.result, CallOp("tanh", {x})));
}

TEST(PatternRewriterTest, SharingIsPreservedAndUntouchedNodesAreKept) {
  Var x = TensorVar("x");
  Expr shared = CallOp("exp", {x});
  Expr zero_add = CallOp("add", {shared, ConstantOf({1, 8}, 0.0f)});
  Expr body = CallOp("multiply", {zero_add, shared});
  Expr rewritten = RewritePatterns({RemoveAddZero()}, body);
  const CallNode* multiply = As<CallNode>(rewritten);
  ASSERT_NE(multiply, nullptr);
  EXPECT_EQ(multiply->args[0], shared);
  EXPECT_EQ(multiply->args[1], shared);
}

TEST(PatternRewriterTest, NestedFunctionsAreLeftAlone) {
  Var p = TensorVar("p");
  Function inner = MakeFunction({p}, ReluChain(p, 2));
  Var x = TensorVar("x");
  Expr body = ReluChain(MakeCall(inner, {x}), 2);
  Expr rewritten = RewritePatterns({CollapseDoubleRelu()}, body);
  const CallNode* result = As<CallNode>(rewritten);
  ASSERT_NE(result, nullptr);
  const CallNode* call = As<CallNode>(result->args[0]);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->callee, inner);
}

}  // namespace
}  // namespace collage
