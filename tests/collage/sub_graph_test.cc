#include "collage/sub_graph.h"
#include "collage/sub_graph_boundary.h"

#include <gtest/gtest.h>

#include "collage_test_graphs.h"
#include "interpreter/interpreter.h"
#include "testing/random_graphs.h"

#include <algorithm>
#include <map>
#include <random>

namespace collage {
namespace {

using collage_testing::GraphOf;

SubGraph Make(const DataflowGraph& graph, std::vector<size_t> inside) {
  return SubGraph(graph, IndexSet(graph.size(), inside));
}

TEST(SubGraphTest, DerivedSets) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  const SubGraph sub_graph = Make(graph, {2, 3});
  EXPECT_EQ(sub_graph.input().ToString(), "{1}");
  EXPECT_EQ(sub_graph.entry().ToString(), "{2, 3}");
  EXPECT_EQ(sub_graph.exit().ToString(), "{3}");  // external
  EXPECT_TRUE(sub_graph.output().IsEmpty());
  EXPECT_EQ(sub_graph.depth(), 2u);
  EXPECT_EQ(sub_graph.kind(), OpPatternKind::kBroadcast);  // add is broadcast, tanh elementwise
}

TEST(SubGraphTest, ConvexityViolationIsInvalid) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  // relu and add without tanh: relu -> tanh (outside) -> add.
  EXPECT_FALSE(Make(graph, {1, 3}).IsValid(graph, {}));
  EXPECT_TRUE(Make(graph, {1, 2, 3}).IsValid(graph, {}));
  // In the diamond, relu and add are convex: tanh is not fed by relu.
  const DataflowGraph diamond = GraphOf(collage_testing::MakeDiamond());
  EXPECT_TRUE(Make(diamond, {1, 3}).IsValid(diamond, {}));
  EXPECT_FALSE(SubGraph(diamond, IndexSet(diamond.size())).IsValid(diamond, {}));
}

TEST(SubGraphTest, TapsExitsAndDepthLimits) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  const SubGraph tapped = Make(graph, {1, 2});  // relu feeds tanh inside and add outside
  EXPECT_EQ(tapped.exit().ToString(), "{1, 2}");
  EXPECT_FALSE(tapped.IsValid(graph, {.max_exits = 0, .allow_taps = false, .max_depth = 0}));
  EXPECT_TRUE(tapped.IsValid(graph, {.max_exits = 0, .allow_taps = true, .max_depth = 0}));
  EXPECT_FALSE(tapped.IsValid(graph, {.max_exits = 1, .allow_taps = true, .max_depth = 0}));
  const SubGraph all = Make(graph, {1, 2, 3});
  EXPECT_EQ(all.depth(), 3u);
  EXPECT_TRUE(all.IsValid(graph, {.max_exits = 1, .allow_taps = false, .max_depth = 3}));
  EXPECT_FALSE(all.IsValid(graph, {.max_exits = 1, .allow_taps = false, .max_depth = 2}));
}

TEST(SubGraphTest, UnionTouchingAndWrapping) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeDiamond());
  const SubGraph relu = Make(graph, {1}).WithAttrs(graph, Attrs{{attr::kComposite, std::string("x.relu")}});
  const SubGraph tanh = Make(graph, {2});
  const SubGraph add = Make(graph, {3});
  EXPECT_FALSE(relu.Touches(tanh));
  EXPECT_TRUE(relu.Touches(add));
  EXPECT_TRUE(add.Touches(relu));
  const SubGraph joined = relu.DisjointUnion(graph, add);
  EXPECT_EQ(joined.inside().ToString(), "{1, 3}");
  ASSERT_EQ(joined.nested().size(), 1u);
  EXPECT_EQ(joined.nested()[0].attrs->GetString(attr::kComposite), "x.relu");
  const SubGraph primitive = joined.WithAttrs(graph, Attrs{{attr::kPrimitive, int64_t{1}}});
  ASSERT_EQ(primitive.nested().size(), 1u);
  EXPECT_EQ(primitive.nested()[0].sub_graph->nested().size(), 1u);
  EXPECT_FALSE(primitive == joined);
  EXPECT_THROW(joined.DisjointUnion(graph, add), Error);
  EXPECT_NE(primitive.ToString().find("Composite=\"x.relu\""), std::string::npos) << primitive.ToString();
}

TEST(SubGraphTest, ExtractComputesTheExits) {
  const Function skip = collage_testing::MakeSkip();
  const DataflowGraph graph = GraphOf(skip);
  const Function extracted = Make(graph, {1, 2}).Extract(graph);
  ASSERT_EQ(extracted->params.size(), 1u);
  ASSERT_NE(As<TupleNode>(extracted->body), nullptr);
  const std::vector<Value> args = RandomArguments(skip, 3);
  const std::vector<Tensor> parts = Evaluate(extracted, args).Flatten();
  ASSERT_EQ(parts.size(), 2u);
  // add(relu, tanh(relu)) recomputed from the extracted pieces.
  const Function add_of_parts = [&] {
    Var a = MakeVar("a", testing::F32({2, 3}));
    Var b = MakeVar("b", testing::F32({2, 3}));
    return MakeFunction({a, b}, CallOp("add", {a, b}));
  }();
  const Tensor recombined = Evaluate(add_of_parts, {Value(parts[0]), Value(parts[1])}).Flatten()[0];
  EXPECT_TRUE(recombined.BitwiseEqual(Evaluate(skip, args).Flatten()[0]));
}

// Independent oracle for convexity: a sub-graph is convex when no node outside it is both
// reachable from an inside node and able to reach one. Reachability by plain forward search
// over the whole graph.
bool IsConvexByReachability(const DataflowGraph& graph, const std::vector<bool>& inside) {
  const size_t n = graph.size();
  std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n, false));
  for (size_t start = 0; start < n; ++start) {
    std::vector<size_t> stack = {start};
    while (!stack.empty()) {
      const size_t node = stack.back();
      stack.pop_back();
      for (size_t consumer : graph.node(node).outputs) {
        if (!reaches[start][consumer]) {
          reaches[start][consumer] = true;
          stack.push_back(consumer);
        }
      }
    }
  }
  for (size_t middle = 0; middle < n; ++middle) {
    if (inside[middle]) continue;
    bool from_inside = false, to_inside = false;
    for (size_t node = 0; node < n; ++node) {
      if (!inside[node]) continue;
      from_inside = from_inside || reaches[node][middle];
      to_inside = to_inside || reaches[middle][node];
    }
    if (from_inside && to_inside) return false;
  }
  return true;
}

TEST(SubGraphTest, ConvexityAgreesWithReachabilityOnRandomSubsets) {
  std::mt19937_64 random(7);
  size_t convex = 0, non_convex = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 4 + static_cast<int>(seed % 12)));
    for (int trial = 0; trial < 30; ++trial) {
      std::vector<bool> inside(graph.size(), false);
      std::vector<size_t> indices;
      for (size_t node = 0; node < graph.size(); ++node) {
        if (graph.node(node).expr->kind() != ExprKind::kVar && random() % 3 == 0) {
          inside[node] = true;
          indices.push_back(node);
        }
      }
      if (indices.empty()) continue;
      const bool expected = IsConvexByReachability(graph, inside);
      const SubGraphConfig any_shape{.max_exits = 0, .allow_taps = true, .max_depth = 0};
      EXPECT_EQ(Make(graph, indices).IsValid(graph, any_shape), expected)
          << "seed " << seed << " inside " << IndexSet(graph.size(), indices).ToString();
      (expected ? convex : non_convex)++;
    }
  }
  EXPECT_GT(convex, 50u);
  EXPECT_GT(non_convex, 50u);  // the check is exercised both ways
}

// Calls visit(graph, a, b) for up to 30 random pairs of disjoint non-empty sub-graphs (of
// non-variable nodes) on each of 60 random DAGs.
template <typename Visit>
void ForRandomDisjointPairs(uint64_t random_seed, Visit visit) {
  std::mt19937_64 random(random_seed);
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 4 + static_cast<int>(seed % 12)));
    for (int trial = 0; trial < 30; ++trial) {
      std::vector<size_t> first, second;
      for (size_t node = 0; node < graph.size(); ++node) {
        if (graph.node(node).expr->kind() == ExprKind::kVar) continue;
        const auto side = random() % 3;
        if (side == 0) first.push_back(node);
        if (side == 1) second.push_back(node);
      }
      if (first.empty() || second.empty()) continue;
      visit(graph, Make(graph, first), Make(graph, second));
    }
  }
}

TEST(SubGraphTest, ExitCountOfUnionIsTheExitCountOfTheBuiltUnion) {
  std::map<size_t, size_t> exit_counts;
  ForRandomDisjointPairs(11, [&](const DataflowGraph& graph, const SubGraph& a, const SubGraph& b) {
    const size_t expected = a.DisjointUnion(graph, b).exit().Count();
    EXPECT_EQ(a.ExitCountOfUnion(graph, b), expected);
    EXPECT_EQ(b.ExitCountOfUnion(graph, a), expected);
    ++exit_counts[expected];
  });
  EXPECT_GE(exit_counts.size(), 3u);  // unions with several different exit counts were compared
}

TEST(SubGraphTest, UnionDepthAtLeastBoundsTheBuiltUnionsDepth) {
  size_t exact = 0, below = 0;
  ForRandomDisjointPairs(17, [&](const DataflowGraph& graph, const SubGraph& a, const SubGraph& b) {
    const size_t depth = a.DisjointUnion(graph, b).depth();
    for (const auto& [up, down] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
      if (!up->output().Intersects(down->inside())) continue;  // the bound is for a feeding pair
      const size_t bound = up->UnionDepthAtLeast(*down);
      EXPECT_LE(bound, depth);
      EXPECT_GE(bound, 2u);  // at least one edge between them
      exact += bound == depth;
      below += bound < depth;
    }
  });
  EXPECT_GT(exact, 50u);  // tight often enough to matter, and
  EXPECT_GT(below, 50u);  // a bound, not the depth, on branchy graphs
}

TEST(SubGraphBoundaryTest, DisjointUnionIsTheBoundaryOfTheBuiltUnion) {
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  size_t compared = 0, convex = 0, exits_dropped = 0;
  ForRandomDisjointPairs(19, [&](const DataflowGraph& graph, const SubGraph& a, const SubGraph& b) {
    const SubGraph built = a.DisjointUnion(graph, b);
    const SubGraphBoundary expected = SubGraphBoundary::Of(built);
    const SubGraphBoundary joined = SubGraphBoundary::Of(a).DisjointUnion(graph, SubGraphBoundary::Of(b));
    const std::string where = a.inside().ToString() + " + " + b.inside().ToString();
    EXPECT_EQ(joined.inside, expected.inside) << where;
    EXPECT_EQ(joined.input, expected.input) << where;
    EXPECT_EQ(joined.output, expected.output) << where;
    EXPECT_EQ(joined.exit, expected.exit) << where;
    EXPECT_EQ(joined.first_inside, expected.first_inside) << where;
    EXPECT_EQ(joined.last_inside, expected.last_inside) << where;
    EXPECT_EQ(joined.IsConvex(graph), built.IsValid(graph, convex_only)) << where;
    EXPECT_EQ(SubGraphBoundary::Of(a).Touches(SubGraphBoundary::Of(b)), a.Touches(b)) << where;
    ++compared;
    convex += built.IsValid(graph, convex_only);
    exits_dropped += built.exit().Count() < a.exit().Count() + b.exit().Count();
  });
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(convex, 100u);         // both convex and non-convex unions were compared,
  EXPECT_GT(compared - convex, 100u);
  EXPECT_GT(exits_dropped, 100u);  // and unions in which a side's exit stopped being one
}

TEST(SubGraphBoundaryTest, UnionOfOverlappingSubGraphsIsRefused) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  EXPECT_THROW(SubGraphBoundary::Of(Make(graph, {2, 3})).DisjointUnion(graph, SubGraphBoundary::Of(Make(graph, {3}))),
               Error);
}

// A chain's pieces: the bound is the union's depth, so a union too deep is refused unbuilt.
TEST(SubGraphTest, UnionDepthAtLeastIsExactOnAChain) {
  Var x = MakeVar("x", TensorType(DType::kF32, {1, 8}));
  Expr current = x;
  for (int i = 0; i < 12; ++i) current = CallOp("nn.relu", {current});
  const DataflowGraph graph = GraphOf(MakeFunction({x}, current));
  for (size_t split = 2; split + 1 < graph.size(); ++split) {
    std::vector<size_t> head, tail;
    for (size_t node = 1; node < graph.size(); ++node) (node < split ? head : tail).push_back(node);
    const SubGraph up = Make(graph, head), down = Make(graph, tail);
    EXPECT_EQ(up.UnionDepthAtLeast(down), up.DisjointUnion(graph, down).depth());
  }
}

// The derived sets and depth straight from their definitions, over every node of the graph.
struct DerivedByDefinition {
  std::vector<size_t> entry, exit, input, output;
  size_t depth = 0;
};

DerivedByDefinition DeriveByDefinition(const DataflowGraph& graph, const std::vector<bool>& inside) {
  DerivedByDefinition derived;
  std::vector<size_t> depth(graph.size(), 0);
  for (size_t node = 0; node < graph.size(); ++node) {
    const DataflowNode& data = graph.node(node);
    if (inside[node]) {
      size_t longest = 0;
      for (size_t producer : data.inputs) longest = std::max(longest, inside[producer] ? depth[producer] : 0);
      depth[node] = longest + 1;
      derived.depth = std::max(derived.depth, depth[node]);
      if (std::any_of(data.inputs.begin(), data.inputs.end(), [&](size_t producer) { return !inside[producer]; })) {
        derived.entry.push_back(node);
      }
      if (data.external ||
          std::any_of(data.outputs.begin(), data.outputs.end(), [&](size_t consumer) { return !inside[consumer]; })) {
        derived.exit.push_back(node);
      }
    } else {
      if (std::any_of(data.outputs.begin(), data.outputs.end(), [&](size_t consumer) { return inside[consumer]; })) {
        derived.input.push_back(node);
      }
      if (std::any_of(data.inputs.begin(), data.inputs.end(), [&](size_t producer) { return inside[producer]; })) {
        derived.output.push_back(node);
      }
    }
  }
  return derived;
}

TEST(SubGraphTest, DerivedSetsAgreeWithTheirDefinitionsOnRandomSubsets) {
  std::mt19937_64 random(13);
  size_t compared = 0, deeper_than_two = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeVariedRandomDag(seed, 6 + static_cast<int>(seed % 20)));
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<bool> inside(graph.size(), false);
      std::vector<size_t> indices;
      for (size_t node = 0; node < graph.size(); ++node) {
        if (random() % 2 == 0) {
          inside[node] = true;
          indices.push_back(node);
        }
      }
      const SubGraph sub_graph = Make(graph, indices);
      const DerivedByDefinition expected = DeriveByDefinition(graph, inside);
      const std::string where = "seed " + std::to_string(seed) + " inside " + sub_graph.inside().ToString();
      EXPECT_EQ(sub_graph.entry().ToVector(), expected.entry) << where;
      EXPECT_EQ(sub_graph.exit().ToVector(), expected.exit) << where;
      EXPECT_EQ(sub_graph.input().ToVector(), expected.input) << where;
      EXPECT_EQ(sub_graph.output().ToVector(), expected.output) << where;
      EXPECT_EQ(sub_graph.depth(), expected.depth) << where;
      EXPECT_EQ(sub_graph.first_inside(), indices.empty() ? graph.size() : indices.front()) << where;
      // Wrapping and relabelling keep the derived sets.
      const SubGraph wrapped =
          sub_graph.WithAttrs(graph, Attrs{{attr::kPrimitive, int64_t{1}}}).WithLabel(graph, std::string("w"));
      EXPECT_EQ(wrapped.exit().ToVector(), expected.exit) << where;
      EXPECT_EQ(wrapped.output().ToVector(), expected.output) << where;
      EXPECT_EQ(wrapped.depth(), expected.depth) << where;
      ++compared;
      deeper_than_two += expected.depth > 2;
    }
  }
  EXPECT_EQ(compared, 800u);
  EXPECT_GT(deeper_than_two, 100u);
}

}  // namespace
}  // namespace collage
