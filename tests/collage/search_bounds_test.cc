#include "collage/search_bounds.h"

#include <gtest/gtest.h>

#include "collage/partition_spec.h"
#include "collage_test_graphs.h"

namespace collage {
namespace {

using collage_testing::Declare;
using collage_testing::GraphOf;

// Candidates with given inside sets on the unary chain x=0 -> relu=1 -> tanh=2 -> exp=3.
std::vector<CandidatePartition> ChainCandidates(const DataflowGraph& graph,
                                                const std::vector<std::vector<size_t>>& insides) {
  std::vector<CandidatePartition> candidates;
  for (const std::vector<size_t>& inside : insides) {
    candidates.emplace_back(SubGraph(graph, IndexSet(graph.size(), inside)), "spec", "backend", "rule");
  }
  return candidates;
}

TEST(CoverLowerBoundTest, EachNodeCountsItsCheapestShare) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());
  const std::vector<CandidatePartition> candidates = ChainCandidates(graph, {{1}, {1, 2}, {2}, {3}, {2, 3}});
  // The last candidate is not usable, so its cheap share does not count.
  const CoverLowerBound bound(candidates, {{0, 3.0}, {1, 4.0}, {2, 1.0}, {3, 6.0}});
  // Shares: node 1 min(3, 4/2) = 2, node 2 min(4/2, 1) = 1, node 3 6.
  EXPECT_NEAR(bound.Remaining(IndexSet(graph.size(), {0})), 9.0, 1e-6);
  EXPECT_NEAR(bound.Remaining(IndexSet(graph.size(), {0, 1})), 7.0, 1e-6);
  EXPECT_NEAR(bound.Share(IndexSet(graph.size(), {1, 2})), 3.0, 1e-6);
  // Never above a true cover: {1,2} then {3} costs 10, {1} {2} {3} costs 10.
  EXPECT_LE(bound.Remaining(IndexSet(graph.size(), {0})), 10.0);
}

// x=0 -> a=relu=1 -> b=tanh(a)=2 -> c=add(a, b)=3: edges 0>1, 1>2, 1>3, 2>3.
TEST(FuturePenaltyBoundTest, CountsEveryCrossingEdgeAndWhatSingleInputNodesPassOn) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  const FuturePenaltyBound bound(graph, [](size_t value) { return static_cast<double>(10 * value + 1); });
  // Covered {0, 1}: crossing edges 1>2 (11) and 1>3 (11); tanh (2) has one input, so what it
  // passes on counts too: its edge 2>3 (21).
  EXPECT_DOUBLE_EQ(bound.Bound(IndexSet(graph.size(), {0, 1}), {1}), 11.0 + 21.0 + 11.0);
  // Covered {0, 1, 2}: crossing edges 1>3 (11) and 2>3 (21); add has two inputs.
  EXPECT_DOUBLE_EQ(bound.Bound(IndexSet(graph.size(), {0, 1, 2}), {1, 2}), 11.0 + 21.0);
  // Covered {0, 2}: 2 waits for its producer 1 (11) and feeds 3 (21); nothing else is covered.
  EXPECT_DOUBLE_EQ(bound.Bound(IndexSet(graph.size(), {0, 2}), {2}), 11.0 + 21.0);
  EXPECT_DOUBLE_EQ(bound.Bound(IndexSet(graph.size(), {0, 1, 2, 3}), {}), 0.0);
}

}  // namespace
}  // namespace collage
