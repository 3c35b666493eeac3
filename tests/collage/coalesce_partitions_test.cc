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


// A Primitive partition of backend "a" over `nodes` with the boundary named `boundary`.
CandidatePartition PartitionOf(const DataflowGraph& graph, const std::vector<Expr>& nodes, const std::string& boundary) {
  Attrs attrs{{attr::kPrimitive, int64_t{1}}, {attr::kCompiler, std::string("a")}};
  if (boundary != "plain") attrs.Set(attr::kBoundaryLayout, boundary);
  return CandidatePartition(SubGraph(graph, Group(graph, nodes)).WithAttrs(graph, std::move(attrs)), "a", "a", "ops");
}

bool AnyPartition(const CandidatePartition&) { return true; }
bool AnyBoundary(const std::string&, const PartitionLayouts&) { return true; }

// x -> relu -> tanh -> exp, with relu and tanh each one partition.
struct BlockedChain {
  Expr relu, tanh;
  Function function;

  explicit BlockedChain(Shape shape) {
    Var x = MakeVar("x", testing::F32(std::move(shape)));
    relu = CallOp("nn.relu", {x});
    tanh = CallOp("tanh", {relu});
    function = MakeFunction({x}, CallOp("exp", {tanh}));
  }
};

TEST(CoalescePartitionsTest, MergesAcrossLayoutsWhereEveryCrossingValueKeepsItsBytes) {
  const BlockedChain chain({1, 16, 4, 4});
  const DataflowGraph graph = GraphOf(chain.function);
  const std::vector<CandidatePartition> chosen = {PartitionOf(graph, {chain.relu}, "plain>nchw8c"),
                                                  PartitionOf(graph, {chain.tanh}, "nchw8c>plain")};
  // Without leave to merge across layouts, different boundaries stay apart.
  EXPECT_EQ(CoalescePartitions(graph, chosen, AnyPartition).size(), 2u);

  const std::vector<CandidatePartition> merged = CoalescePartitions(graph, chosen, AnyPartition, {AnyBoundary});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].sub_graph().inside(), Group(graph, {chain.relu, chain.tanh}));
  EXPECT_EQ(merged[0].boundary_layouts(), PartitionLayouts::Uniform(Layout::kPlain));
  EXPECT_EQ(merged[0].rule_name(), "coalesce");

  // A boundary the spec is not offered in is not taken.
  const BoundaryOffered blocked_only = [](const std::string& spec, const PartitionLayouts& layouts) {
    EXPECT_EQ(spec, "a");
    return !layouts.IsPlain();
  };
  EXPECT_EQ(CoalescePartitions(graph, chosen, AnyPartition, {blocked_only}).size(), 2u);

  // A blocked producer and a blocked-to-plain consumer become one blocked-to-plain partition.
  const std::vector<CandidatePartition> blocked = CoalescePartitions(
      graph, {PartitionOf(graph, {chain.relu}, "nchw8c"), PartitionOf(graph, {chain.tanh}, "nchw8c>plain")},
      AnyPartition, {AnyBoundary});
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(PartitionLayoutsName(blocked[0].boundary_layouts()), "nchw8c>plain");
}

TEST(CoalescePartitionsTest, KeepsPartitionsApartWhereACrossingValueWouldChangeBytes) {
  // relu reads x plainly, add reads it channel-blocked: one boundary cannot give both their bytes.
  const auto merged_count = [](Shape shape, bool keep_crossing_bytes = true) {
    Var x = MakeVar("x", testing::F32(std::move(shape)));
    Expr relu = CallOp("nn.relu", {x});
    Expr add = CallOp("add", {relu, x});
    const DataflowGraph graph = GraphOf(MakeFunction({x}, CallOp("exp", {add})));
    return CoalescePartitions(graph,
                              {PartitionOf(graph, {relu}, "plain>nchw8c"), PartitionOf(graph, {add}, "nchw8c>plain")},
                              AnyPartition, AcrossLayouts{AnyBoundary, keep_crossing_bytes})
        .size();
  };
  EXPECT_EQ(merged_count({1, 16, 4, 4}), 2u);
  // Control: one pixel of whole channel blocks has the same bytes in both layouts.
  EXPECT_EQ(merged_count({1, 16, 1, 1}), 1u);
  // Leave to change crossing bytes merges them, converting x once for the merged partition.
  EXPECT_EQ(merged_count({1, 16, 4, 4}, false), 1u);
}

}  // namespace
}  // namespace collage
