#include "collage/search.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <random>

#include "collage/partition_spec.h"
#include "collage_test_graphs.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using collage_testing::Declare;
using collage_testing::GraphOf;

// A deterministic pseudo-random cost in [1, 10) per (inside set, spec).
Cost HashedCost(const DataflowGraph&, const CandidatePartition& candidate) {
  std::mt19937_64 random(std::hash<std::string>{}(candidate.sub_graph().inside().ToString() + "/" +
                                                   candidate.spec_name()));
  return Cost::Seconds(std::uniform_real_distribution<double>(1.0, 10.0)(random));
}

std::vector<PartitionSpec> MockSpecs() {
  const SubGraphConfig shallow{.max_exits = 1, .allow_taps = false, .max_depth = 3};
  return {MakeOpPredicateSpec(Declare("a", {"nn.relu", "add", "tanh", "multiply"}), shallow),
          MakeOpPredicateSpec(Declare("b", {"sigmoid", "negative", "abs", "subtract", "maximum", "add"}), shallow),
          MakeCodeGeneratorSpec("tvm", shallow), MakeHostSpec()};
}

std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const std::vector<PartitionSpec>& specs) {
  std::vector<CandidatePartition> candidates;
  for (const PartitionSpec& spec : specs) {
    for (CandidatePartition& candidate : spec.AllCandidates(graph)) candidates.push_back(std::move(candidate));
  }
  return candidates;
}

// Independent oracle: depth-first enumeration of every cover of the non-parameter nodes by
// pairwise disjoint candidates (in the order "the candidate holding the lowest uncovered
// node"), pruned only by the best total found so far (costs are positive).
void Enumerate(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
               const std::vector<double>& costs, std::vector<bool>& covered, double so_far, double* best) {
  if (so_far >= *best) return;
  size_t next = 0;
  while (next < covered.size() && covered[next]) ++next;
  if (next == covered.size()) {
    *best = so_far;
    return;
  }
  for (size_t c = 0; c < candidates.size(); ++c) {
    const std::vector<size_t> inside = candidates[c].sub_graph().inside().ToVector();
    bool holds_next = false;
    bool overlaps = false;
    for (size_t node : inside) {
      holds_next |= node == next;
      overlaps |= covered[node];
    }
    if (!holds_next || overlaps) continue;
    for (size_t node : inside) covered[node] = true;
    Enumerate(graph, candidates, costs, covered, so_far + costs[c], best);
    for (size_t node : inside) covered[node] = false;
  }
}

TEST(SearchTest, DijkstraMatchesExhaustiveEnumerationOnRandomDags) {
  const std::vector<PartitionSpec> specs = MockSpecs();
  size_t total_candidates = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 1 + static_cast<int>(seed % 12)));
    const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
    total_candidates += candidates.size();
    MockCostEstimator estimator(HashedCost);
    const SearchResult result = SearchOptimalPlacement(graph, candidates, estimator, {"a", "b", "tvm", "host"});

    std::vector<double> costs;
    for (const CandidatePartition& candidate : candidates) costs.push_back(HashedCost(graph, candidate).seconds());
    std::vector<bool> covered(graph.size(), false);
    for (const DataflowNode& node : graph.nodes()) covered[node.index] = node.expr->kind() == ExprKind::kVar;
    double best = std::numeric_limits<double>::infinity();
    Enumerate(graph, candidates, costs, covered, 0.0, &best);
    ASSERT_NEAR(result.total.seconds(), best, 1e-9) << "seed " << seed;

    // The chosen candidates cover every non-parameter node exactly once and add up.
    IndexSet union_of_chosen(graph.size());
    double sum = 0;
    for (const CandidatePartition& chosen : result.chosen) {
      ASSERT_TRUE(union_of_chosen.AreDisjoint(chosen.sub_graph().inside()));
      union_of_chosen |= chosen.sub_graph().inside();
      sum += HashedCost(graph, chosen).seconds();
    }
    for (const DataflowNode& node : graph.nodes()) {
      EXPECT_EQ(union_of_chosen[node.index], node.expr->kind() != ExprKind::kVar) << "seed " << seed;
    }
    EXPECT_NEAR(sum, result.total.seconds(), 1e-9);
  }
  EXPECT_GT(total_candidates, 2000u);
}

TEST(SearchTest, SameInputsGiveTheSamePlan) {
  const std::vector<PartitionSpec> specs = MockSpecs();
  const DataflowGraph graph = GraphOf(testing::MakeRandomDag(77, 12));
  auto plan = [&] {
    MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition&) { return Cost::Seconds(1); });
    std::vector<std::string> plan;
    for (const auto& chosen : SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {}).chosen) {
      plan.push_back(chosen.spec_name() + chosen.sub_graph().inside().ToString());
    }
    return plan;
  };
  const std::vector<std::string> first = plan();
  EXPECT_FALSE(first.empty());
  for (int run = 0; run < 3; ++run) EXPECT_EQ(plan(), first);
}

TEST(SearchTest, UncoverableNodeNamesTheNodeAndSpecs) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  const DataflowGraph graph = GraphOf(MakeFunction({x}, CallOp("exp", {CallOp("nn.relu", {x})})));
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("a", {"nn.relu"})), MakeHostSpec()};
  MockCostEstimator estimator(HashedCost);
  try {
    SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {"a", "host"});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "Collage: no partition spec accepts node 2 (call to exp); specs tried: a, host");
  }
}

TEST(SearchTest, InvalidCandidatesAreSkipped) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("cheap", {"nn.relu", "tanh", "exp"})),
                                            MakeOpPredicateSpec(Declare("dear", {"nn.relu", "tanh", "exp"}))};
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    return candidate.spec_name() == "cheap" ? Cost::Invalid() : Cost::Seconds(2);
  });
  const SearchResult result = SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {});
  ASSERT_EQ(result.chosen.size(), 1u);  // the whole chain in one "dear" partition
  EXPECT_EQ(result.chosen[0].spec_name(), "dear");
  EXPECT_EQ(result.total.seconds(), 2.0);
  MockCostEstimator all_invalid([](const DataflowGraph&, const CandidatePartition&) { return Cost::Invalid(); });
  EXPECT_THROW(SearchOptimalPlacement(graph, AllCandidates(graph, specs), all_invalid, {}), Error);
}

TEST(SearchTest, TransitionPenaltyFavoursStayingOnOneSpec) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());
  const SubGraphConfig singletons{.max_exits = 1, .allow_taps = false, .max_depth = 1};
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("a", {"nn.relu", "tanh", "exp"}), singletons),
                                            MakeOpPredicateSpec(Declare("b", {"nn.relu", "tanh", "exp"}), singletons)};
  // a is cheaper for relu and exp, b for tanh, by 1 s each.
  auto costs = [](const DataflowGraph& g, const CandidatePartition& candidate) {
    const bool tanh = As<CallNode>(g.node(candidate.sub_graph().first_inside()).expr)->op()->name == "tanh";
    return Cost::Seconds((candidate.spec_name() == "b") == tanh ? 1.0 : 2.0);
  };
  MockCostEstimator free_switching(costs);
  EXPECT_EQ(SearchOptimalPlacement(graph, AllCandidates(graph, specs), free_switching, {}).total.seconds(), 3.0);
  MockCostEstimator penalized(costs);
  SearchOptions options;
  options.transition_penalty = [](const std::string& from, const CandidatePartition& to, const DataflowGraph&) {
    return !from.empty() && from != to.spec_name() ? 5.0 : 0.0;
  };
  const SearchResult result = SearchOptimalPlacement(graph, AllCandidates(graph, specs), penalized, {}, options);
  EXPECT_EQ(result.total.seconds(), 4.0);  // all on a: 1 + 2 + 1
  for (const CandidatePartition& chosen : result.chosen) EXPECT_EQ(chosen.spec_name(), "a");
}

}  // namespace
}  // namespace collage
