#include "collage/coalesce_partitions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "collage_test_graphs.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

// Two branches that feed each other: a1 = relu(x), b1 = tanh(x), a2 = add(a1, b1),
// b2 = multiply(b1, a1). The groups {a1, a2} and {b1, b2} are each convex, but contracted
// they depend on each other.
struct CrossedBranches {
  Expr a1, b1, a2, b2;
  Function function;

  CrossedBranches() {
    Var x = MakeVar("x", testing::F32({2, 3}));
    a1 = CallOp("nn.relu", {x});
    b1 = CallOp("tanh", {x});
    a2 = CallOp("add", {a1, b1});
    b2 = CallOp("multiply", {b1, a1});
    function = MakeFunction({x}, CallOp("subtract", {a2, b2}));
  }
};

IndexSet Group(const DataflowGraph& graph, const std::vector<Expr>& nodes) {
  std::vector<size_t> indices;
  for (const Expr& node : nodes) indices.push_back(graph.IndexOf(node.get()));
  return IndexSet(graph.size(), indices);
}

TEST(GroupsAreAcyclicTest, MutuallyDependentConvexGroupsAreCyclic) {
  const CrossedBranches branches;
  const DataflowGraph graph = GraphOf(branches.function);
  const IndexSet a = Group(graph, {branches.a1, branches.a2});
  const IndexSet b = Group(graph, {branches.b1, branches.b2});
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  EXPECT_TRUE(SubGraph(graph, a).IsValid(graph, convex_only));
  EXPECT_TRUE(SubGraph(graph, b).IsValid(graph, convex_only));
  EXPECT_FALSE(GroupsAreAcyclic(graph, {a, b}));
  // Either group alone, or the branches grouped by level, leave a DAG.
  EXPECT_TRUE(GroupsAreAcyclic(graph, {a}));
  EXPECT_TRUE(GroupsAreAcyclic(graph, {b}));
  EXPECT_TRUE(GroupsAreAcyclic(graph, {Group(graph, {branches.a1, branches.b1}), Group(graph, {branches.a2, branches.b2})}));
}

TEST(GroupsAreAcyclicTest, AGroupThatIsNotConvexIsCyclic) {
  // In x -> relu -> tanh -> exp, the group {relu, exp} contracted feeds tanh, which feeds it.
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());
  EXPECT_FALSE(GroupsAreAcyclic(graph, {IndexSet(graph.size(), {1, 3})}));
  EXPECT_TRUE(GroupsAreAcyclic(graph, {IndexSet(graph.size(), {1, 2})}));
}

// The merge order CoalescePartitions promises, by its definition: scan every pair (i, j), i < j,
// merge the first that joins (same backend, touching, convex, acyclic), and scan again.
// Every partition here is a plain f32 Primitive one, so those are all the conditions.
std::vector<IndexSet> CoalesceByDefinition(const DataflowGraph& graph, std::vector<CandidatePartition> chosen) {
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < chosen.size() && !merged; ++i) {
      for (size_t j = i + 1; j < chosen.size() && !merged; ++j) {
        if (chosen[i].backend() != chosen[j].backend() || !chosen[i].sub_graph().Touches(chosen[j].sub_graph())) {
          continue;
        }
        SubGraph joined = chosen[i].sub_graph().DisjointUnion(graph, chosen[j].sub_graph());
        if (!joined.IsValid(graph, convex_only)) continue;
        std::vector<CandidatePartition> next = chosen;
        next[i] = CandidatePartition(std::move(joined), chosen[i].spec_name(), chosen[i].backend(), "coalesce");
        next.erase(next.begin() + static_cast<std::ptrdiff_t>(j));
        if (!GroupsAreAcyclic(graph, InsideSets(next))) continue;
        chosen = std::move(next);
        merged = true;
      }
    }
  }
  return InsideSets(chosen);
}

TEST(CoalescePartitionsTest, MergesInTheOrderOfAFullPairScan) {
  std::mt19937_64 random(5);
  size_t merges = 0, cases = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeVariedRandomDag(seed, 10 + static_cast<int>(seed % 25)));
    std::vector<CandidatePartition> chosen;
    for (size_t node = 0; node < graph.size(); ++node) {
      if (!As<CallNode>(graph.node(node).expr) || random() % 5 == 0) continue;
      const std::string backend = random() % 3 == 0 ? "b" : "a";
      SubGraph single(graph, IndexSet(graph.size(), {node}));
      chosen.emplace_back(single.WithAttrs(graph, Attrs{{attr::kPrimitive, int64_t{1}}, {attr::kCompiler, backend}}),
                          backend, backend, "ops");
    }
    std::shuffle(chosen.begin(), chosen.end(), random);
    const std::vector<IndexSet> expected = CoalesceByDefinition(graph, chosen);
    const std::vector<IndexSet> merged =
        InsideSets(CoalescePartitions(graph, chosen, [](const CandidatePartition&) { return true; }));
    EXPECT_EQ(merged, expected) << "seed " << seed;
    merges += chosen.size() - expected.size();
    ++cases;
  }
  EXPECT_EQ(cases, 40u);
  EXPECT_GT(merges, 100u);
}

}  // namespace
}  // namespace collage
