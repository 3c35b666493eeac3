#include "collage/coalesce_partitions.h"

#include <gtest/gtest.h>

#include "collage_test_graphs.h"

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

}  // namespace
}  // namespace collage
