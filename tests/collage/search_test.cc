#include "collage/search.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <random>
#include <set>

#include "collage/partition_spec.h"
#include "collage_test_graphs.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using collage_testing::Declare;
using collage_testing::GraphOf;

// A deterministic pseudo-random cost in [1, 10) per (inside set, spec, boundary layout).
Cost HashedCost(const DataflowGraph&, const CandidatePartition& candidate) {
  const PartitionLayouts layouts = candidate.boundary_layouts();
  std::mt19937_64 random(std::hash<std::string>{}(candidate.sub_graph().inside().ToString() + "/" +
                                                   candidate.spec_name() +
                                                   (layouts.IsPlain() ? "" : PartitionLayoutsName(layouts))));
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
// node"). A cover costs its candidates' costs plus `extra(chosen)` (>= 0), so the search is
// pruned by the candidates' costs alone against the best total found so far.
void Enumerate(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
               const std::vector<double>& costs, const std::function<double(const std::vector<size_t>&)>& extra,
               std::vector<bool>& covered, std::vector<size_t>& chosen, double so_far, double* best) {
  if (so_far >= *best) return;
  size_t next = 0;
  while (next < covered.size() && covered[next]) ++next;
  if (next == covered.size()) {
    *best = std::min(*best, so_far + extra(chosen));
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
    chosen.push_back(c);
    Enumerate(graph, candidates, costs, extra, covered, chosen, so_far + costs[c], best);
    chosen.pop_back();
    for (size_t node : inside) covered[node] = false;
  }
}

double BestCover(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                 const std::function<double(const std::vector<size_t>&)>& extra) {
  std::vector<double> costs;
  for (const CandidatePartition& candidate : candidates) costs.push_back(HashedCost(graph, candidate).seconds());
  std::vector<bool> covered(graph.size(), false);
  for (const DataflowNode& node : graph.nodes()) covered[node.index] = node.expr->kind() == ExprKind::kVar;
  std::vector<size_t> chosen;
  double best = std::numeric_limits<double>::infinity();
  Enumerate(graph, candidates, costs, extra, covered, chosen, 0.0, &best);
  return best;
}

// The transition penalties of a complete cover, straight from SearchOptions' definition: every
// non-host partition pays for each input whose value a partition of another side (spec and
// boundary layout) computed, from the model's side for parameters (a host node passes on its
// one producer's side; constants have none), and for each of its values that is (a field of)
// the body's result, to the model's side; and, with a hand-over penalty, once for every other
// spec among its inputs' sides (the model's excepted).
double PenaltiesOfCover(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                        const std::vector<size_t>& chosen, const SearchOptions& options) {
  const PartitionSide model_side{"", PartitionLayouts{}};
  std::vector<const CandidatePartition*> partition_of(graph.size(), nullptr);
  for (size_t c : chosen) {
    for (size_t node : candidates[c].sub_graph().inside().ToVector()) partition_of[node] = &candidates[c];
  }
  std::vector<std::optional<PartitionSide>> value_side(graph.size());
  for (const DataflowNode& node : graph.nodes()) {
    const CandidatePartition* partition = partition_of[node.index];
    if (node.expr->kind() == ExprKind::kVar) {
      value_side[node.index] = model_side;
    } else if (partition == nullptr) {
      continue;
    } else if (partition->spec_name() != options.host_spec) {
      value_side[node.index] = PartitionSide{partition->spec_name(), partition->boundary_layouts()};
    } else if (node.inputs.size() == 1) {
      value_side[node.index] = value_side[node.inputs[0]];
    }
  }
  auto is_result = [&](size_t value) {
    const DataflowNode& node = graph.node(value);
    if (node.external && node.expr->kind() != ExprKind::kTuple) return true;
    for (size_t consumer : node.outputs) {
      if (graph.node(consumer).external && graph.node(consumer).expr->kind() == ExprKind::kTuple) return true;
    }
    return false;
  };
  double total = 0;
  for (size_t c : chosen) {
    if (candidates[c].spec_name() == options.host_spec) continue;
    const PartitionSide side{candidates[c].spec_name(), candidates[c].boundary_layouts()};
    // A hand-over is free only between partitions of one side whose results' layout is its
    // parameters'.
    const auto charged = [&](const PartitionSide& producer) {
      const bool same_side = producer.spec == side.spec && producer.layouts.parameters == side.layouts.parameters &&
                             producer.layouts.results == side.layouts.results;
      return !same_side || producer.layouts.parameters != producer.layouts.results;
    };
    std::set<std::string> handed_over_from;
    for (size_t value : candidates[c].sub_graph().input().ToVector()) {
      if (value_side[value] && charged(*value_side[value])) {
        total += options.transition_penalty(*value_side[value], side, value, graph);
      }
      if (options.hand_over_penalty && value_side[value] && !value_side[value]->spec.empty() &&
          value_side[value]->spec != side.spec && handed_over_from.insert(value_side[value]->spec).second) {
        total += options.hand_over_penalty(*value_side[value], side);
      }
    }
    for (size_t value : candidates[c].sub_graph().inside().ToVector()) {
      if (is_result(value)) total += options.transition_penalty(side, model_side, value, graph);
    }
  }
  return total;
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

    const double best = BestCover(graph, candidates, [](const std::vector<size_t>&) { return 0.0; });
    ASSERT_NEAR(result.total.seconds(), best, 1e-9 * best) << "seed " << seed;

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
    EXPECT_NEAR(sum, result.total.seconds(), 1e-9 * result.total.seconds());
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

// A penalty that depends on the value and checks it is only asked about real hand-overs.
SearchOptions ValueDependentPenalty() {
  SearchOptions options;
  options.host_spec = "host";
  options.transition_penalty = [](const PartitionSide& producer, const PartitionSide& consumer, size_t value,
                                  const DataflowGraph&) {
    EXPECT_FALSE(producer.HandsOverFreelyTo(consumer));
    EXPECT_NE(producer.spec, "host");
    EXPECT_NE(consumer.spec, "host");
    return 0.5 + 0.75 * static_cast<double>(value % 4) + (producer.layouts.results != consumer.layouts.parameters ? 0.6 : 0.0);
  };
  options.transition_penalty_bound = [](size_t value, const DataflowGraph&) {
    return 0.5 + 0.75 * static_cast<double>(value % 4) + 0.6;
  };
  return options;
}

// The search's placement of `graph`, checked to cost what the exhaustive enumeration's best
// cover costs with the penalties of `options`.
SearchResult ExpectExhaustiveOptimum(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                                     const SearchOptions& options, uint64_t seed) {
  MockCostEstimator estimator(HashedCost);
  SearchResult result = SearchOptimalPlacement(graph, candidates, estimator, {}, options);
  const double best = BestCover(graph, candidates, [&](const std::vector<size_t>& chosen) {
    return PenaltiesOfCover(graph, candidates, chosen, options);
  });
  EXPECT_NEAR(result.total.seconds(), best, 1e-9 * best) << "seed " << seed;
  return result;
}

TEST(SearchTest, DijkstraWithTransitionPenaltiesMatchesExhaustiveEnumeration) {
  const std::vector<PartitionSpec> specs = MockSpecs();
  const SearchOptions options = ValueDependentPenalty();
  size_t penalized_plans = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 1 + static_cast<int>(seed % 10)));
    const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
    const SearchResult result = ExpectExhaustiveOptimum(graph, candidates, options, seed);
    if (::testing::Test::HasFailure()) return;
    double own_costs = 0;
    for (const CandidatePartition& chosen : result.chosen) own_costs += HashedCost(graph, chosen).seconds();
    if (result.total.seconds() > own_costs + 1e-9) ++penalized_plans;
  }
  EXPECT_GT(penalized_plans, 10u);  // the penalties do shape some optimal plans
}

// A hand-over penalty per pair of specs, on top of the value-dependent transition penalty.
SearchOptions WithHandOverPenalty(SearchOptions options) {
  options.hand_over_penalty = [](const PartitionSide& producer, const PartitionSide& consumer) {
    EXPECT_NE(producer.spec, consumer.spec);
    EXPECT_FALSE(producer.spec.empty() || consumer.spec.empty());
    EXPECT_NE(producer.spec, "host");
    EXPECT_NE(consumer.spec, "host");
    return 0.25 + 0.5 * static_cast<double>((producer.spec.size() + 2 * consumer.spec.size()) % 5);
  };
  const auto conversions = options.transition_penalty_bound;
  options.transition_penalty_bound = [conversions](size_t value, const DataflowGraph& graph) {
    return conversions(value, graph) + 0.25 + 0.5 * 4;
  };
  return options;
}

TEST(SearchTest, DijkstraWithHandOverPenaltiesMatchesExhaustiveEnumeration) {
  const std::vector<PartitionSpec> specs = MockSpecs();
  const SearchOptions without = ValueDependentPenalty();
  const SearchOptions options = WithHandOverPenalty(without);
  size_t changed_plans = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 1 + static_cast<int>(seed % 10)));
    const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
    const SearchResult result = ExpectExhaustiveOptimum(graph, candidates, options, seed);
    if (::testing::Test::HasFailure()) return;
    MockCostEstimator estimator(HashedCost);
    const SearchResult conversions_only = SearchOptimalPlacement(graph, candidates, estimator, {}, without);
    if (result.total.seconds() > conversions_only.total.seconds() + 1e-9) ++changed_plans;
  }
  EXPECT_GT(changed_plans, 10u);  // the hand-overs do cost some optimal plans more
}

// PlacementCost prices any cover as the search prices its paths: every cover of small random
// DAGs costs its candidates plus PenaltiesOfCover (the penalties by their definition), and the
// search's own choice costs its total.
TEST(SearchTest, PlacementCostIsTheCostOfACoverWithItsPenalties) {
  const std::vector<PartitionSpec> specs = MockSpecs();
  const SearchOptions options = WithHandOverPenalty(ValueDependentPenalty());
  MockCostEstimator estimator(HashedCost);
  size_t covers = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 1 + static_cast<int>(seed % 6)));
    const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
    const SearchResult result = SearchOptimalPlacement(graph, candidates, estimator, {}, options);
    EXPECT_NEAR(PlacementCost(graph, result.chosen, estimator, options).seconds(), result.total.seconds(),
                1e-9 * result.total.seconds())
        << "seed " << seed;
    BestCover(graph, candidates, [&](const std::vector<size_t>& chosen) {
      std::vector<CandidatePartition> cover;
      double expected = PenaltiesOfCover(graph, candidates, chosen, options);
      for (size_t c : chosen) {
        cover.push_back(candidates[c]);
        expected += HashedCost(graph, candidates[c]).seconds();
      }
      EXPECT_NEAR(PlacementCost(graph, cover, estimator, options).seconds(), expected, 1e-9 * expected)
          << "seed " << seed;
      ++covers;
      return 0.0;
    });
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(covers, 200u);
}

// relu(x) + tanh(x) * exp(x): the add's partition takes values from two partitions of one other
// spec and pays one hand-over; a partition of the model's parameters pays none.
TEST(SearchTest, HandOverIsChargedOncePerPartitionAndProducingSpec) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  const DataflowGraph graph = GraphOf(MakeFunction(
      {x}, CallOp("add", {CallOp("nn.relu", {x}), CallOp("multiply", {CallOp("tanh", {x}), CallOp("exp", {x})})})));
  const SubGraphConfig singletons{.max_exits = 1, .allow_taps = false, .max_depth = 1};
  const std::vector<PartitionSpec> specs = {
      MakeOpPredicateSpec(Declare("a", {"nn.relu", "tanh", "exp", "multiply"}), singletons),
      MakeOpPredicateSpec(Declare("b", {"add"}), singletons)};
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition&) { return Cost::Seconds(1); });
  SearchOptions options;
  options.transition_penalty = [](const PartitionSide&, const PartitionSide&, size_t, const DataflowGraph&) {
    return 0.0;
  };
  std::vector<std::pair<std::string, std::string>> charged;
  options.hand_over_penalty = [&](const PartitionSide& producer, const PartitionSide& consumer) {
    charged.emplace_back(producer.spec, consumer.spec);
    return 10.0;
  };
  const SearchResult result = SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {}, options);
  EXPECT_EQ(result.chosen.size(), 5u);
  EXPECT_EQ(result.total.seconds(), 15.0);  // five partitions and the add's one hand-over
  EXPECT_FALSE(charged.empty());
  for (const auto& [producer, consumer] : charged) {
    EXPECT_EQ(producer, "a");
    EXPECT_EQ(consumer, "b");
  }
}

// Specs offering channels-last boundaries next to plain ones, over rank-4 graphs: the search
// keys on the layouts of the boundary values, so it stays exact with conversion costs.
std::vector<PartitionSpec> SpecsWithLayouts() {
  const SubGraphConfig shallow{.max_exits = 1, .allow_taps = false, .max_depth = 3};
  SupportDeclaration a = Declare("a", {"nn.relu", "add", "tanh", "multiply"});
  a.boundary_layouts = {Layout::kPlain, Layout::kChannelsLast};
  a.mixed_boundary_layouts = {{Layout::kPlain, Layout::kChannelsLast}, {Layout::kChannelsLast, Layout::kPlain}};
  SupportDeclaration generator;
  generator.backend = "tvm";
  generator.fuses_like_fuse_ops = true;
  generator.boundary_layouts = {Layout::kPlain, Layout::kChannelsLast};
  return {MakeOpPredicateSpec(a, shallow),
          MakeOpPredicateSpec(Declare("b", {"sigmoid", "negative", "abs", "subtract", "maximum", "add"}), shallow),
          MakePartitionSpec(generator, shallow), MakeHostSpec()};
}

TEST(SearchTest, DijkstraWithBoundaryLayoutsMatchesExhaustiveEnumeration) {
  const std::vector<PartitionSpec> specs = SpecsWithLayouts();
  const SearchOptions options = ValueDependentPenalty();
  size_t channels_last_plans = 0;
  size_t channels_last_candidates = 0;
  size_t mixed_candidates = 0;
  size_t mixed_plans = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    const DataflowGraph graph =
        GraphOf(testing::MakeRandomDag(seed, 1 + static_cast<int>(seed % 9), Shape{1, 2, 2, 2}));
    const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
    for (const CandidatePartition& candidate : candidates) {
      channels_last_candidates += candidate.boundary_layouts() == PartitionLayouts::Uniform(Layout::kChannelsLast);
      mixed_candidates += !candidate.boundary_layouts().IsUniform();
    }
    const SearchResult result = ExpectExhaustiveOptimum(graph, candidates, options, seed);
    if (::testing::Test::HasFailure()) return;
    for (const CandidatePartition& chosen : result.chosen) {
      if (chosen.boundary_layouts() == PartitionLayouts::Uniform(Layout::kChannelsLast)) {
        ++channels_last_plans;
        break;
      }
    }
    mixed_plans += std::any_of(result.chosen.begin(), result.chosen.end(),
                               [](const CandidatePartition& chosen) { return !chosen.boundary_layouts().IsUniform(); });
  }
  EXPECT_GT(channels_last_candidates, 100u);
  EXPECT_GT(channels_last_plans, 10u);  // channels-last partitions do win some plans
  EXPECT_GT(mixed_candidates, 100u);
  EXPECT_GT(mixed_plans, 5u);  // and so do partitions reading one layout and writing another
}

// Plain [2, 3] tensors have the same bytes in every layout: no channels-last variant is offered.
TEST(SearchTest, NoChannelsLastVariantWhereTheBytesAgree) {
  const DataflowGraph graph = GraphOf(testing::MakeRandomDag(7, 6));
  for (const CandidatePartition& candidate : AllCandidates(graph, SpecsWithLayouts())) {
    EXPECT_TRUE(candidate.boundary_layouts().IsPlain()) << candidate.ToString();
  }
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
  options.transition_penalty = [](const PartitionSide& producer, const PartitionSide& consumer, size_t,
                                  const DataflowGraph&) { return producer.spec.empty() || consumer.spec.empty() ? 0.0 : 5.0; };
  const SearchResult result = SearchOptimalPlacement(graph, AllCandidates(graph, specs), penalized, {}, options);
  EXPECT_EQ(result.total.seconds(), 4.0);  // all on a: 1 + 2 + 1
  for (const CandidatePartition& chosen : result.chosen) EXPECT_EQ(chosen.spec_name(), "a");
}

// The penalty follows dataflow, not the order of the search path: relu(x) * c visits the
// constant c (a host node) between relu and multiply, and a hand-over from relu's spec to
// multiply's is charged all the same.
TEST(SearchTest, TransitionPenaltyIsChargedAcrossHostNodesOnThePath) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  const Expr c = MakeConstant(Tensor::Zeros(DType::kF32, {2, 3}));
  const DataflowGraph graph = GraphOf(MakeFunction({x}, CallOp("multiply", {CallOp("nn.relu", {x}), c})));
  const SubGraphConfig singletons{.max_exits = 1, .allow_taps = false, .max_depth = 1};
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("a", {"nn.relu", "multiply"}), singletons),
                                            MakeOpPredicateSpec(Declare("b", {"multiply"}), singletons),
                                            MakeHostSpec()};
  auto costs = [](const DataflowGraph&, const CandidatePartition& candidate) {
    return Cost::Seconds(candidate.spec_name() == "host" ? 0.0 : candidate.spec_name() == "b" ? 1.0 : 2.0);
  };
  SearchOptions options;
  options.host_spec = "host";
  std::vector<size_t> charged_values;
  options.transition_penalty = [&](const PartitionSide& producer, const PartitionSide& consumer, size_t value,
                                   const DataflowGraph&) {
    if (producer.spec.empty() || consumer.spec.empty()) return 0.0;  // the model's parameters and results
    EXPECT_EQ(producer.spec + ">" + consumer.spec, "a>b");
    charged_values.push_back(value);
    return 5.0;
  };
  MockCostEstimator estimator(costs);
  const SearchResult result = SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {}, options);
  EXPECT_EQ(result.total.seconds(), 4.0);  // relu and multiply on a; b would save 1 s and pay 5
  for (const CandidatePartition& chosen : result.chosen) EXPECT_NE(chosen.spec_name(), "b");
  ASSERT_FALSE(charged_values.empty());
  for (size_t value : charged_values) {
    EXPECT_EQ(As<CallNode>(graph.node(value).expr)->op()->name, "nn.relu");  // never the constant
  }
}

// A projection of a partition's tuple hands that partition's value on: consuming it on
// another spec is charged, on the same spec it is not.
TEST(SearchTest, ProjectionsPassOnTheSpecOfTheirTuple) {
  Var x = MakeVar("x", testing::F32({4, 6}));
  const Expr parts = CallOp("split", {x}, {{"sizes", std::vector<int64_t>{3, 3}}, {"axis", int64_t{1}}});
  const Expr first = MakeTupleGetItem(parts, 0);
  const DataflowGraph graph = GraphOf(MakeFunction({x}, CallOp("tanh", {first})));
  const SubGraphConfig singletons{.max_exits = 1, .allow_taps = false, .max_depth = 1};
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("a", {"split", "tanh"}), singletons),
                                            MakeOpPredicateSpec(Declare("b", {"tanh"}), singletons),
                                            MakeHostSpec()};
  auto costs = [](const DataflowGraph& g, const CandidatePartition& candidate) {
    if (candidate.spec_name() == "host") return Cost::Zero();
    const bool tanh = As<CallNode>(g.node(candidate.sub_graph().first_inside()).expr)->op()->name == "tanh";
    return Cost::Seconds(tanh && candidate.spec_name() == "a" ? 3.0 : 1.0);
  };
  for (const double penalty : {1.0, 5.0}) {
    SearchOptions options;
    options.host_spec = "host";
    options.transition_penalty = [&](const PartitionSide& producer, const PartitionSide& consumer, size_t value,
                                     const DataflowGraph& g) {
      if (producer.spec.empty() || consumer.spec.empty()) return 0.0;  // the model's parameters and results
      EXPECT_EQ(producer.spec + ">" + consumer.spec, "a>b");
      EXPECT_EQ(g.node(value).expr->kind(), ExprKind::kTupleGetItem);
      return penalty;
    };
    MockCostEstimator estimator(costs);
    const SearchResult result = SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {}, options);
    // split on a (1 s), then tanh on b (1 s + the penalty) or on a (3 s).
    EXPECT_EQ(result.total.seconds(), std::min(2.0 + penalty, 4.0)) << "penalty " << penalty;
  }
}

// The search's total for its own plan, recomputed from the plan: the candidates' costs plus the
// penalties of the plan's hand-overs.
double CostOfPlan(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                  const SearchResult& result, const SearchOptions& options) {
  std::vector<size_t> chosen;
  double total = 0;
  for (const CandidatePartition& partition : result.chosen) {
    total += HashedCost(graph, partition).seconds();
    for (size_t c = 0; c < candidates.size(); ++c) {
      if (candidates[c].spec_name() == partition.spec_name() &&
          candidates[c].sub_graph().inside() == partition.sub_graph().inside()) {
        chosen.push_back(c);
        break;
      }
    }
  }
  EXPECT_EQ(chosen.size(), result.chosen.size());
  return total + PenaltiesOfCover(graph, candidates, chosen, options);
}

TEST(SearchTest, OverTheStateBudgetTheCoveredSetApproximationAnswersAndSaysSo) {
  const std::vector<PartitionSpec> specs = MockSpecs();
  SearchOptions options = ValueDependentPenalty();
  options.max_states = 40;
  size_t approximate = 0;
  for (uint64_t seed = 1; seed <= 240; ++seed) {
    const DataflowGraph graph = GraphOf(testing::MakeRandomDag(seed, 4 + static_cast<int>(seed % 7)));
    const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
    MockCostEstimator estimator(HashedCost);
    SearchResult result;
    try {
      result = SearchOptimalPlacement(graph, candidates, estimator, {}, options);
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("state budget"), std::string::npos) << error.what();
      continue;
    }
    const double best = BestCover(graph, candidates, [&](const std::vector<size_t>& chosen) {
      return PenaltiesOfCover(graph, candidates, chosen, options);
    });
    // Whichever search answered, its total is what its plan really costs, and never below the optimum.
    EXPECT_NEAR(result.total.seconds(), CostOfPlan(graph, candidates, result, options), 1e-9 * best) << "seed " << seed;
    EXPECT_GE(result.total.seconds(), best - 1e-9) << "seed " << seed;
    if (result.stats.exact) {
      EXPECT_NEAR(result.total.seconds(), best, 1e-9 * best) << "seed " << seed;
    } else {
      ++approximate;
      EXPECT_GT(result.stats.exact_states_reached, 0u);
      EXPECT_NE(result.stats.ToString().find("approximate"), std::string::npos);
    }
  }
  EXPECT_GT(approximate, 5u);
}

TEST(SearchTest, ASearchThatOutgrowsEvenTheApproximationFailsWithAClearMessage) {
  const DataflowGraph graph = GraphOf(testing::MakeRandomDag(5, 10));
  const std::vector<PartitionSpec> specs = MockSpecs();
  SearchOptions options = ValueDependentPenalty();
  options.max_states = 2;
  MockCostEstimator estimator(HashedCost);
  try {
    SearchOptimalPlacement(graph, AllCandidates(graph, specs), estimator, {}, options);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("more than 2 search states (the state budget)"), std::string::npos)
        << error.what();
  }
}

// An inception-like network: blocks of four parallel branches of different depths joined by a
// sum, every op available on three specs with different costs, a penalty on every hand-over.
// Without the lower bound and the dominance test the exact search's states multiply with the
// open branches (each branch's boundary on any spec); with them it stays small and exact.
TEST(SearchTest, ParallelBranchesStayWithinFewStatesAndExact) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  Expr value = x;
  const std::vector<std::string> ops = {"nn.relu", "tanh", "sigmoid", "negative"};
  for (int block = 0; block < 8; ++block) {
    std::vector<Expr> branches;
    for (int branch = 0; branch < 4; ++branch) {
      Expr path = value;
      for (int depth = 0; depth <= branch; ++depth) path = CallOp(ops[(block + branch + depth) % 4], {path});
      branches.push_back(path);
    }
    value = CallOp("add", {CallOp("add", {branches[0], branches[1]}), CallOp("add", {branches[2], branches[3]})});
  }
  const DataflowGraph graph = GraphOf(MakeFunction({x}, value));
  const SubGraphConfig shallow{.max_exits = 1, .allow_taps = false, .max_depth = 2};
  const std::set<std::string> all_ops = {"nn.relu", "tanh", "sigmoid", "negative", "add"};
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("a", all_ops), shallow),
                                            MakeOpPredicateSpec(Declare("b", all_ops), shallow),
                                            MakeOpPredicateSpec(Declare("c", all_ops), shallow)};
  SearchOptions options;
  options.transition_penalty = [](const PartitionSide&, const PartitionSide&, size_t, const DataflowGraph&) { return 0.3; };
  options.transition_penalty_bound = [](size_t, const DataflowGraph&) { return 0.3; };
  MockCostEstimator estimator(HashedCost);
  const std::vector<CandidatePartition> candidates = AllCandidates(graph, specs);
  const SearchResult result = SearchOptimalPlacement(graph, candidates, estimator, {}, options);
  EXPECT_TRUE(result.stats.exact);
  EXPECT_LT(result.stats.states_reached, 200'000u) << result.stats.ToString();
  EXPECT_NEAR(result.total.seconds(), CostOfPlan(graph, candidates, result, options), 1e-9 * result.total.seconds());
}

// x -> relu -> tanh -> exp (nodes 1, 2, 3), every candidate of spec a costing 1 ms but the one
// of all three nodes (0.5 ms): a region's cheapest cover uses only candidates inside the region,
// even where one reaching past the region's last node would be cheaper.
TEST(CoverSearchTest, CoversExactlyTheRegionWithCandidatesInsideIt) {
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    return Cost::Seconds(candidate.sub_graph().inside().Count() == 3 ? 0.5e-3 : 1e-3);
  });
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());
  const std::vector<CandidatePartition> candidates =
      AllCandidates(graph, {MakeOpPredicateSpec(Declare("a", {"nn.relu", "tanh", "exp"}))});
  const CoverSearch search(graph, candidates, estimator);
  auto any = [](size_t) { return true; };
  auto inside_sets = [&](const SearchResult& result) {
    std::vector<std::string> sets;
    for (const CandidatePartition& chosen : result.chosen) sets.push_back(chosen.sub_graph().inside().ToString());
    return sets;
  };
  const std::optional<SearchResult> first_two = search.Cheapest(IndexSet(graph.size(), {1, 2}), any);
  ASSERT_TRUE(first_two.has_value());
  EXPECT_EQ(inside_sets(*first_two), std::vector<std::string>{"{1, 2}"});
  const std::optional<SearchResult> middle = search.Cheapest(IndexSet(graph.size(), {2}), any);
  ASSERT_TRUE(middle.has_value());
  EXPECT_EQ(inside_sets(*middle), std::vector<std::string>{"{2}"});
  auto no_pairs = [&](size_t c) { return candidates[c].sub_graph().inside().Count() == 1; };
  const std::optional<SearchResult> singles = search.Cheapest(IndexSet(graph.size(), {1, 2}), no_pairs);
  ASSERT_TRUE(singles.has_value());
  EXPECT_EQ(inside_sets(*singles), (std::vector<std::string>{"{1}", "{2}"}));
  EXPECT_DOUBLE_EQ(singles->total.seconds(), 2e-3);
  auto nothing = [](size_t) { return false; };
  EXPECT_FALSE(search.Cheapest(IndexSet(graph.size(), {1, 2}), nothing).has_value());
}

}  // namespace
}  // namespace collage
