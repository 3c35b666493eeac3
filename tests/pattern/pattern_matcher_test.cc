// The all-matches matcher: exact match counts on hand-made graphs (overlapping matches,
// alternatives, optionals), the inside / inputs / bindings of a match, predicates, the
// dominator pattern on diamonds, nested functions and a long chain.
#include "pattern/pattern_matcher.h"

#include <gtest/gtest.h>

#include "ir/type_inference.h"
#include "pattern/pattern_test_util.h"

namespace collage {
namespace {

using testing::ConstantOf;
using testing::CountRootedAt;
using testing::F32;
using testing::TensorVar;

Expr Relu(const Expr& x) { return CallOp("nn.relu", {x}); }

TEST(PatternMatcherTest, OverlappingMatchesOnAReluChainAreAllFound) {
  Var x = TensorVar("x");
  Expr relu1 = Relu(x);
  Expr relu2 = Relu(relu1);
  Expr relu3 = Relu(relu2);
  Pattern two_relus = IsOp("nn.relu")(IsOp("nn.relu")(Wildcard()));
  std::vector<PatternMatch> matches = FindAllMatches(two_relus, MakeFunction({x}, relu3));
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].root, relu2);
  EXPECT_EQ(matches[0].inside, (std::vector<Expr>{relu1, relu2}));
  EXPECT_EQ(matches[0].inputs, (std::vector<Expr>{x}));
  EXPECT_EQ(matches[1].root, relu3);
  EXPECT_EQ(matches[1].inside, (std::vector<Expr>{relu2, relu3}));
  EXPECT_EQ(matches[1].inputs, (std::vector<Expr>{relu1}));
  EXPECT_TRUE(matches[1].IsInside(relu2));
  EXPECT_FALSE(matches[1].IsInside(relu1));
}

TEST(PatternMatcherTest, OptionalReluGivesConvBiasAndConvBiasReluAtDifferentRoots) {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Constant weight = ConstantOf({4, 3, 3, 3});
  Constant bias = ConstantOf({1, 4, 1, 1});
  Expr conv = CallOp("nn.conv2d", {x, weight});
  Expr biased = CallOp("add", {conv, bias});
  Expr relu = Relu(biased);
  Pattern conv_bias = IsOp("add")(IsOp("nn.conv2d")(Wildcard(), IsConstant()), IsConstant());
  Pattern conv_bias_relu = IsOp("nn.relu")(conv_bias).Optional();
  std::vector<PatternMatch> matches = FindAllMatches(conv_bias_relu, MakeFunction({x}, relu));
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].root, biased);
  EXPECT_EQ(matches[0].inside, (std::vector<Expr>{conv, biased}));
  EXPECT_EQ(matches[0].inputs, (std::vector<Expr>{x, weight, bias}));
  EXPECT_EQ(matches[1].root, relu);
  EXPECT_EQ(matches[1].inside, (std::vector<Expr>{conv, biased, relu}));
  EXPECT_EQ(matches[1].inputs, (std::vector<Expr>{x, weight, bias}));
}

TEST(PatternMatcherTest, BindingsMapPatternNodesToExpressions) {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Constant weight = ConstantOf({4, 3, 3, 3});
  Constant bias = ConstantOf({1, 4, 1, 1});
  Expr conv = CallOp("nn.conv2d", {x, weight});
  Expr biased = CallOp("add", {conv, bias});
  Pattern data = Wildcard();
  Pattern conv_pattern = IsOp("nn.conv2d")(data, IsConstant());
  Pattern bias_pattern = IsConstant();
  Pattern root = IsOp("add")(conv_pattern, bias_pattern);
  std::vector<PatternMatch> matches = FindAllMatches(root, biased);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].Get(root), biased);
  EXPECT_EQ(matches[0].Get(conv_pattern), conv);
  EXPECT_EQ(matches[0].Get(data), x);
  EXPECT_EQ(matches[0].Get(bias_pattern), bias);
  EXPECT_EQ(matches[0].Get(Wildcard()), nullptr) << "a pattern that is not part of the match";
  // Bindings come in pre-order: the root first.
  ASSERT_FALSE(matches[0].bindings.empty());
  EXPECT_EQ(matches[0].bindings.front().first, root);
}

TEST(PatternMatcherTest, ASharedPatternNodeMatchesEachOccurrenceOnItsOwn) {
  Var a = TensorVar("a");
  Var b = TensorVar("b");
  Expr relu_a = Relu(a);
  Expr sigmoid_b = CallOp("sigmoid", {b});
  Expr sum = CallOp("add", {relu_a, sigmoid_b});
  Pattern activation = IsOp("nn.relu")(Wildcard()) | IsOp("sigmoid")(Wildcard());
  std::vector<PatternMatch> matches = FindAllMatches(IsOp("add")(activation, activation), sum);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].GetAll(activation), (std::vector<Expr>{relu_a, sigmoid_b}));
  EXPECT_EQ(matches[0].inside, (std::vector<Expr>{relu_a, sigmoid_b, sum}));
  EXPECT_EQ(matches[0].inputs, (std::vector<Expr>{a, b}));
}

TEST(PatternMatcherTest, AlternativesAtOneRootGiveOneMatchPerDistinctNodeSet) {
  Var x = TensorVar("x");
  Var y = TensorVar("y");
  Expr relu = Relu(x);
  Expr sum = CallOp("add", {relu, y});
  Function function = MakeFunction({x, y}, sum);

  Pattern shallow = IsOp("add")(Wildcard(), Wildcard());
  Pattern deep = IsOp("add")(IsOp("nn.relu")(Wildcard()), Wildcard());
  std::vector<PatternMatch> both = FindAllMatches(shallow | deep, function);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].inside, (std::vector<Expr>{sum}));
  EXPECT_EQ(both[0].inputs, (std::vector<Expr>{relu, y}));
  EXPECT_EQ(both[1].inside, (std::vector<Expr>{relu, sum}));
  EXPECT_EQ(both[1].inputs, (std::vector<Expr>{x, y}));

  // Two ways that cover the same nodes are one match.
  Pattern same_nodes = IsOp("add")(Wildcard(), IsVar());
  EXPECT_EQ(FindAllMatches(shallow | same_nodes, function).size(), 1u);
  // Alternatives that match at different roots.
  Pattern any_call = IsOp("nn.relu")(Wildcard()) | IsOp("add")(Wildcard(), Wildcard());
  std::vector<PatternMatch> calls = FindAllMatches(any_call, function);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].root, relu);
  EXPECT_EQ(calls[1].root, sum);
}

TEST(PatternMatcherTest, SharedGraphNodesAreInsideOnce) {
  Var x = TensorVar("x");
  Expr relu = Relu(x);
  Expr sum = CallOp("add", {relu, relu});
  Pattern relu_pattern = IsOp("nn.relu")(Wildcard());
  std::vector<PatternMatch> matches = FindAllMatches(IsOp("add")(relu_pattern, relu_pattern), sum);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].inside, (std::vector<Expr>{relu, sum}));
  EXPECT_EQ(matches[0].inputs, (std::vector<Expr>{x}));
  // A wildcard that meets an inside node does not make it an input.
  std::vector<PatternMatch> mixed = FindAllMatches(IsOp("add")(relu_pattern, Wildcard()), sum);
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].inputs, (std::vector<Expr>{x}));
}

TEST(PatternMatcherTest, PredicateFiltersMatches) {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Expr conv8 = CallOp("nn.conv2d", {x, ConstantOf({8, 3, 1, 1})});
  Expr conv6 = CallOp("nn.conv2d", {x, ConstantOf({6, 3, 1, 1})});
  Expr conv16 = CallOp("nn.conv2d", {x, ConstantOf({16, 3, 1, 1})});
  Function function = MakeFunction({x}, MakeTuple({conv8, conv6, conv16}));
  Pattern weight = IsConstant();
  Pattern conv = IsOp("nn.conv2d")(Wildcard(), weight);
  auto channels_multiple_of_8 = [&](const PatternMatch& match) {
    return As<ConstantNode>(match.Get(weight))->data.shape()[0] % 8 == 0;
  };
  EXPECT_EQ(FindAllMatches(conv, function).size(), 3u);
  std::vector<PatternMatch> kept = FindAllMatches(conv, function, channels_multiple_of_8);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].root, conv8);
  EXPECT_EQ(kept[1].root, conv16);
}

TEST(PatternMatcherTest, RootsAreDataflowNodesOnly) {
  Var x = TensorVar("x");
  Expr relu = Relu(x);
  // The op node nn.relu and the function node are not roots: x and relu are.
  std::vector<PatternMatch> matches = FindAllMatches(Wildcard(), MakeFunction({x}, relu));
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(matches[0].root, x);
  EXPECT_EQ(matches[1].root, relu);
}

TEST(PatternMatcherTest, NestedFunctionsAreMatchedOnlyWhenAsked) {
  Var p = TensorVar("p");
  Function inner = MakeFunction({p}, Relu(Relu(p)), {{attr::kComposite, std::string("test.double_relu")}});
  Var x = TensorVar("x");
  Function main = MakeFunction({x}, Relu(Relu(MakeCall(inner, {x}))));
  Pattern two_relus = IsOp("nn.relu")(IsOp("nn.relu")(Wildcard()));
  EXPECT_EQ(FindAllMatches(two_relus, main).size(), 1u);
  MatchOptions options;
  options.enter_functions = true;
  EXPECT_EQ(FindAllMatches(two_relus, main, {}, options).size(), 2u);
  // A function's attributes can be constrained through a wildcard callee.
  Pattern composite_call = Wildcard().HasAttr({{attr::kComposite, std::string("test.double_relu")}})(Wildcard());
  EXPECT_EQ(FindAllMatches(composite_call, main).size(), 1u);
}

TEST(PatternMatcherTest, MatchesAtRejectsAForeignRoot) {
  Var x = TensorVar("x");
  PatternMatcher matcher(Relu(x));
  EXPECT_EQ(matcher.MatchesAt(IsVar(), x).size(), 1u);
  EXPECT_THROW(matcher.MatchesAt(Wildcard(), TensorVar("elsewhere")), Error);
  EXPECT_THROW(matcher.FindAll(Pattern()), Error);
}

// conv -> {relu, sigmoid} -> add: the classic diamond.
struct Diamond {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Var w = MakeVar("w", F32({4, 3, 3, 3}));
  Expr conv = CallOp("nn.conv2d", {x, w});
  Expr relu = Relu(conv);
  Expr sigmoid = CallOp("sigmoid", {conv});
  Expr sum = CallOp("add", {relu, sigmoid});
};

Pattern DiamondPattern() {
  Pattern parent = IsOp("nn.conv2d")(Wildcard(), Wildcard());
  Pattern path = IsOp("nn.relu")(Wildcard()) | IsOp("sigmoid")(Wildcard()) | IsOp("tanh")(Wildcard());
  Pattern child = IsOp("add")(Wildcard(), Wildcard());
  return Dominates(parent, path, child);
}

TEST(PatternMatcherTest, DominatorMatchesADiamond) {
  Diamond diamond;
  Pattern pattern = DiamondPattern();
  std::vector<PatternMatch> matches = FindAllMatches(pattern, MakeFunction({diamond.x, diamond.w}, diamond.sum));
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].root, diamond.sum);
  EXPECT_EQ(matches[0].inside, (std::vector<Expr>{diamond.conv, diamond.relu, diamond.sigmoid, diamond.sum}));
  EXPECT_EQ(matches[0].inputs, (std::vector<Expr>{diamond.x, diamond.w}));
  const auto* dominator = pattern.As<DominatorPatternNode>();
  EXPECT_EQ(matches[0].Get(dominator->parent), diamond.conv);
  EXPECT_EQ(matches[0].GetAll(dominator->path), (std::vector<Expr>{diamond.relu, diamond.sigmoid}));
}

TEST(PatternMatcherTest, DominatorFollowsLongerPathsAndConstantSideInputs) {
  Diamond diamond;
  Expr scaled = CallOp("multiply", {CallOp("tanh", {diamond.relu}), ConstantOf({1})});
  Expr sum = CallOp("add", {scaled, diamond.sigmoid});
  Function function = MakeFunction({diamond.x, diamond.w}, sum);
  Pattern parent = IsOp("nn.conv2d")(Wildcard(), Wildcard());
  Pattern elementwise = IsOp("nn.relu")(Wildcard()) | IsOp("sigmoid")(Wildcard()) | IsOp("tanh")(Wildcard()) |
                        IsOp("multiply")(Wildcard(), Wildcard());
  std::vector<PatternMatch> matches =
      FindAllMatches(Dominates(parent, elementwise, IsOp("add")(Wildcard(), Wildcard())), function);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].inside.size(), 6u);  // conv, relu, tanh, multiply, sigmoid, add
  ASSERT_EQ(matches[0].inputs.size(), 3u);
  EXPECT_EQ(matches[0].inputs[2]->kind(), ExprKind::kConstant);
  // Without multiply on the path the walk meets a node that is neither path nor parent.
  Pattern unary = IsOp("nn.relu")(Wildcard()) | IsOp("sigmoid")(Wildcard()) | IsOp("tanh")(Wildcard());
  EXPECT_TRUE(FindAllMatches(Dominates(parent, unary, IsOp("add")(Wildcard(), Wildcard())), function).empty());
}

TEST(PatternMatcherTest, DominatorFailsWhenTheRegionLeaks) {
  Diamond diamond;
  // relu is also a result of the function: the add no longer post-dominates the conv.
  Function leaking = MakeFunction({diamond.x, diamond.w}, MakeTuple({diamond.sum, diamond.relu}));
  EXPECT_TRUE(FindAllMatches(DiamondPattern(), leaking).empty());
  // relu also feeds a node outside the region.
  Function escaping = MakeFunction({diamond.x, diamond.w}, MakeTuple({diamond.sum, CallOp("exp", {diamond.relu})}));
  EXPECT_TRUE(FindAllMatches(DiamondPattern(), escaping).empty());
}

TEST(PatternMatcherTest, DominatorNeedsOneParentAndMatchingPaths) {
  Diamond diamond;
  // The two branches start at two different convs.
  Expr other_conv = CallOp("nn.conv2d", {diamond.x, diamond.w});
  Expr two_parents = CallOp("add", {diamond.relu, CallOp("sigmoid", {other_conv})});
  EXPECT_TRUE(FindAllMatches(DiamondPattern(), MakeFunction({diamond.x, diamond.w}, two_parents)).empty());
  // A branch through an op that is not on the path.
  Expr off_path = CallOp("add", {diamond.relu, CallOp("exp", {diamond.conv})});
  EXPECT_TRUE(FindAllMatches(DiamondPattern(), MakeFunction({diamond.x, diamond.w}, off_path)).empty());
  // A branch that starts at a function parameter, not at the parent.
  Expr from_input = CallOp("add", {diamond.relu, CallOp("sigmoid", {diamond.x})});
  EXPECT_TRUE(FindAllMatches(DiamondPattern(), MakeFunction({diamond.x, diamond.w}, from_input)).empty());
}

TEST(PatternMatcherTest, LongChainMatchesAreCountedExactly) {
  constexpr int kLength = 10000;
  Var x = TensorVar("x");
  Expr current = x;
  for (int i = 0; i < kLength; ++i) current = Relu(current);
  Function chain = MakeFunction({x}, current);
  Pattern two_relus = IsOp("nn.relu")(IsOp("nn.relu")(Wildcard()));
  std::vector<PatternMatch> matches = FindAllMatches(two_relus, chain);
  ASSERT_EQ(matches.size(), static_cast<size_t>(kLength - 1));
  EXPECT_EQ(matches.back().root, current);
  EXPECT_EQ(CountRootedAt(matches, current), 1u);
  // With the optional: a match of two relus at every relu but the first, of one relu at every relu.
  Pattern one_or_two = IsOp("nn.relu")(IsOp("nn.relu")(Wildcard())).Optional();
  EXPECT_EQ(FindAllMatches(one_or_two, chain).size(), static_cast<size_t>(2 * kLength - 1));
}

}  // namespace
}  // namespace collage
