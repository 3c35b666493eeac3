// The all-matches matcher: exact match counts on hand-made graphs (overlapping matches,
// alternatives, optionals), the inside / inputs / bindings of a match, predicates, the
// dominator pattern on diamonds, nested functions and a long chain; on random graphs, what
// alternatives, optionals and shape constraints match against what their parts match.
#include "pattern/pattern_matcher.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

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


// A random graph of relu, tanh, add and multiply over a variable and a constant, and random
// call patterns over those ops with wildcard and constant leaves, alternatives and optionals
// nested inside them. Wrappers (alternative, optional, shape constraint) are checked against
// their parts: the matches of left | right at a root are those of left then those of right,
// without repeating a node set; a wrapper that no part lets match at a root gives nothing there.
struct RandomPatternCase {
  std::mt19937 random;
  Expr Graph() {
    std::vector<Expr> values = {TensorVar("x"), ConstantOf({1, 8})};
    const char* ops[] = {"nn.relu", "tanh", "add", "multiply"};
    for (int i = 0; i < 40; ++i) {
      const std::string op = ops[random() % 4];
      auto operand = [&] { return values[values.size() - 1 - random() % std::min<size_t>(values.size(), 4)]; };
      values.push_back(op == "nn.relu" || op == "tanh" ? CallOp(op, {operand()}) : CallOp(op, {operand(), operand()}));
    }
    return values.back();
  }
  Pattern Call(int depth) {
    const char* ops[] = {"nn.relu", "tanh", "add", "multiply"};
    const std::string op = ops[random() % 4];
    if (op == "nn.relu" || op == "tanh") return IsOp(op)(Operand(depth));
    return IsOp(op)(Operand(depth), Operand(depth));
  }
  Pattern Operand(int depth) {
    const unsigned choice = depth == 0 ? random() % 2 : random() % 6;
    if (choice == 0) return Wildcard();
    if (choice == 1) return IsConstant();
    if (choice == 2) return Call(depth - 1) | Call(depth - 1);
    if (choice == 3) return Call(depth - 1).Optional();
    return Call(depth - 1);
  }
};

using NodeSets = std::vector<std::pair<std::vector<Expr>, std::vector<Expr>>>;

NodeSets MatchesRootedAt(const std::vector<PatternMatch>& matches, const Expr& root) {
  NodeSets sets;
  for (const PatternMatch& match : matches) {
    if (match.root == root) sets.emplace_back(match.inside, match.inputs);
  }
  return sets;
}

NodeSets EitherOf(NodeSets first, const NodeSets& second) {
  for (const auto& set : second) {
    if (std::find(first.begin(), first.end(), set) == first.end()) first.push_back(set);
  }
  return first;
}

TEST(PatternMatcherTest, WrappersMatchWhatTheirPartsMatchOnRandomGraphs) {
  RandomPatternCase random_case{std::mt19937(7)};
  size_t roots_matched_by_right_only = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Expr body = random_case.Graph();
    const Function function = MakeFunction({}, body);
    InferType(function);
    PatternMatcher matcher(function);
    const Pattern left = random_case.Call(2);
    const Pattern right = random_case.Call(2);
    const Pattern optional = random_case.Call(2).Optional();
    const auto& optional_node = *optional.As<OptionalPatternNode>();
    const std::vector<PatternMatch> left_matches = matcher.FindAll(left);
    const std::vector<PatternMatch> right_matches = matcher.FindAll(right);
    const std::vector<PatternMatch> either = matcher.FindAll(left | right);
    const std::vector<PatternMatch> optional_matches = matcher.FindAll(optional);
    const std::vector<PatternMatch> call_matches = matcher.FindAll(optional_node.call);
    const std::vector<PatternMatch> pass_through_matches = matcher.FindAll(optional_node.pass_through());
    const std::vector<PatternMatch> same_shape = matcher.FindAll(left.HasShape({1, 8}));
    const std::vector<PatternMatch> other_shape = matcher.FindAll(left.HasShape({1, 9}));
    EXPECT_TRUE(other_shape.empty());
    for (const Expr& root : matcher.nodes()) {
      const NodeSets left_sets = MatchesRootedAt(left_matches, root);
      const NodeSets right_sets = MatchesRootedAt(right_matches, root);
      ASSERT_EQ(MatchesRootedAt(either, root), EitherOf(left_sets, right_sets)) << "trial " << trial;
      ASSERT_EQ(MatchesRootedAt(optional_matches, root),
                EitherOf(MatchesRootedAt(call_matches, root), MatchesRootedAt(pass_through_matches, root)))
          << "trial " << trial;
      ASSERT_EQ(MatchesRootedAt(same_shape, root), left_sets) << "trial " << trial;
      roots_matched_by_right_only += left_sets.empty() && !right_sets.empty();
    }
  }
  // The comparison can fail: the alternative matches where its left part alone does not.
  EXPECT_GT(roots_matched_by_right_only, 100u);
}

// A matcher keeps what it found (matches, and the nodes where a pattern node failed) across
// FindAll calls; what a warm matcher finds must be what a fresh one finds.
TEST(PatternMatcherTest, AWarmMatcherFindsWhatAFreshOneFinds) {
  RandomPatternCase random_case{std::mt19937(11)};
  size_t roots_matched = 0;
  size_t roots_failed = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Function function = MakeFunction({}, random_case.Graph());
    InferType(function);
    const Pattern inner = random_case.Call(1);
    // Patterns sharing `inner`, so later ones reuse what earlier ones recorded about it.
    const std::vector<Pattern> patterns = {inner, random_case.Call(2), inner.Optional(), inner | random_case.Call(2),
                                           inner.HasShape({1, 8}), inner};
    PatternMatcher warm(function);
    for (const Pattern& pattern : patterns) {
      const std::vector<PatternMatch> warm_matches = warm.FindAll(pattern);
      PatternMatcher fresh(function);
      const std::vector<PatternMatch> fresh_matches = fresh.FindAll(pattern);
      for (const Expr& root : warm.nodes()) {
        const NodeSets sets = MatchesRootedAt(warm_matches, root);
        ASSERT_EQ(sets, MatchesRootedAt(fresh_matches, root)) << "trial " << trial;
        (sets.empty() ? roots_failed : roots_matched) += 1;
      }
    }
  }
  EXPECT_GT(roots_matched, 100u);
  EXPECT_GT(roots_failed, 100u);
}

}  // namespace
}  // namespace collage
