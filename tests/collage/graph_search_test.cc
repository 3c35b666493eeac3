#include "collage/graph_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

#include "graph_search_test_util.h"
#include "ir/printer.h"
#include "ir/visitor.h"

namespace collage {
namespace {

using namespace collage_testing;

// relu, tanh x3, relu, tanh, exp, tanh x2, relu: nodes 1..10. The graph runtime runs them all
// and is fast on tanh only, with 1 ms per partition; the library takes 1 ms per op.
const std::vector<std::string> kChainOps = {"nn.relu", "tanh", "tanh", "tanh", "nn.relu",
                                            "tanh",    "exp",  "tanh", "tanh", "nn.relu"};

struct ChainSearch {
  Function function = MakeOpChain(kChainOps);
  MockCostEstimator estimator{EstimatedCost};
  OpLevelPlacement op_level = PlaceOpLevel(function, LibAndGraphSpecs({"nn.relu", "tanh", "exp"},
                                                                      {"nn.relu", "tanh", "exp"}),
                                           estimator);
  MockPlanLatency latency{&op_level.graph, {"tanh"}};

  GraphSearchResult Run(const GraphSearchOptions& options, const PlacementFitness& fitness) {
    return SearchGraphPlacement(op_level.graph, op_level.candidates, op_level.chosen, {kGraphRuntime}, estimator,
                                fitness, options);
  }
};

GraphSearchOptions SmallBudget(uint64_t seed) {
  GraphSearchOptions options;
  options.evolution.population = 16;
  options.evolution.generations = 30;
  options.evolution.seed = seed;
  return options;
}

// The best latency over every genome (2^10), by brute force.
double BruteForceOptimum(const ChainSearch& chain) {
  const GraphPlacementSpace space(chain.op_level.graph, chain.op_level.candidates, chain.op_level.chosen,
                                  {kGraphRuntime}, const_cast<MockCostEstimator&>(chain.estimator));
  double best = std::numeric_limits<double>::infinity();
  for (uint64_t bits = 0; bits < (uint64_t{1} << space.genes()); ++bits) {
    Genome genome(space.genes());
    for (size_t gene = 0; gene < genome.size(); ++gene) genome[gene] = (bits >> gene) & 1;
    best = std::min(best, chain.latency(space.Decode(genome).chosen));
  }
  return best;
}

// The best latency of the chain computed without the search's space: every convex grouping of
// a chain is a sequence of contiguous runs, each run one graph-runtime partition or single
// library ops, priced by MockPlanLatency's rule from the op names alone (dynamic programming
// over the run ends).
double IndependentChainOptimum(const MockPlanLatency& latency) {
  std::vector<double> best(kChainOps.size() + 1, std::numeric_limits<double>::infinity());
  best[0] = 0;
  for (size_t end = 1; end <= kChainOps.size(); ++end) {
    best[end] = best[end - 1] + latency.library_op;
    double run = latency.overhead;
    for (size_t begin = end; begin-- > 0;) {
      run += latency.fast_ops.count(kChainOps[begin]) ? latency.fast : latency.slow;
      best[end] = std::min(best[end], best[begin] + run);
    }
  }
  return best.back();
}

TEST(GraphSearchTest, FindsTheBruteForceOptimumWithinBudget) {
  ChainSearch chain;
  const double optimum = BruteForceOptimum(chain);
  // Decoding every genome reaches the optimum over all convex groupings.
  EXPECT_NEAR(optimum, IndependentChainOptimum(chain.latency), 1e-12 * optimum);
  const double op_level = chain.latency(chain.op_level.chosen);
  ASSERT_LT(optimum, op_level - 1e-3);  // the op-level plan (10 ms) is far from it
  const GraphSearchResult result = chain.Run(SmallBudget(1), chain.latency);
  EXPECT_TRUE(result.replaced);
  EXPECT_DOUBLE_EQ(result.description.best_fitness, optimum);
  EXPECT_DOUBLE_EQ(chain.latency(result.chosen), optimum);
  EXPECT_DOUBLE_EQ(result.description.op_level_fitness, op_level);
  EXPECT_LE(result.description.stats.individuals, 16u * 30u);
  // The finalists: the graph runtime's whole-region placement, then the best distinct
  // placements, best first, the op-level one left out (and the whole-region one, when it is
  // among the best, not repeated).
  const GraphPlacementSpace space(chain.op_level.graph, chain.op_level.candidates, chain.op_level.chosen,
                                  {kGraphRuntime}, chain.estimator);
  const uint64_t whole_region = space.Decode(space.AllTo(kGraphRuntime)).hash;
  ASSERT_GE(result.finalists.size(), 3u);
  ASSERT_EQ(result.finalist_origins.size(), result.finalists.size());
  EXPECT_EQ(result.finalist_origins[0], FinalistOrigin::WholeRegion(kGraphRuntime));
  EXPECT_EQ(PlanHash(result.finalists[0]), whole_region);
  std::set<uint64_t> finalist_hashes;
  for (const std::vector<CandidatePartition>& finalist : result.finalists) finalist_hashes.insert(PlanHash(finalist));
  EXPECT_EQ(finalist_hashes.size(), result.finalists.size());
  EXPECT_EQ(finalist_hashes.count(PlanHash(chain.op_level.chosen)), 0u);
  EXPECT_FALSE(result.op_level_is_whole_region);
  // The best ones: three ranks, the whole-region placement counting as one when among them.
  size_t best_ranks = 0;
  std::vector<double> best_latencies;
  for (size_t rank = 1; rank < result.finalists.size(); ++rank) {
    best_latencies.push_back(chain.latency(result.finalists[rank]));
    ASSERT_EQ(result.finalist_origins[rank].kind, FinalistOrigin::Kind::kBestByFitness)
        << result.finalist_origins[rank].ToString();
    best_ranks = result.finalist_origins[rank].rank;
  }
  EXPECT_EQ(best_ranks, 3u);
  EXPECT_TRUE(std::is_sorted(best_latencies.begin(), best_latencies.end()));
  EXPECT_DOUBLE_EQ(std::min(best_latencies.front(), chain.latency(result.finalists[0])), optimum);
  // Every tanh run of the optimum is on the graph runtime, and each of its partitions pays off.
  for (const CandidatePartition& candidate : result.chosen) {
    if (candidate.backend() != kGraphRuntime) continue;
    EXPECT_GE(candidate.sub_graph().inside().Count(), 2u) << candidate.ToString();
  }
}

TEST(GraphSearchTest, AnOpLevelPlacementThatIsAWholeRegionIsSaidSoAndNotAFinalist) {
  ChainSearch chain;
  const GraphPlacementSpace space(chain.op_level.graph, chain.op_level.candidates, chain.op_level.chosen,
                                  {kGraphRuntime}, chain.estimator);
  const std::vector<CandidatePartition> whole_region = space.Decode(space.AllTo(kGraphRuntime)).chosen;
  const GraphSearchResult result = SearchGraphPlacement(chain.op_level.graph, chain.op_level.candidates, whole_region,
                                                        {kGraphRuntime}, chain.estimator, chain.latency,
                                                        SmallBudget(1));
  EXPECT_TRUE(result.op_level_is_whole_region);
  for (size_t rank = 0; rank < result.finalists.size(); ++rank) {
    EXPECT_NE(PlanHash(result.finalists[rank]), PlanHash(whole_region)) << rank;
    EXPECT_NE(result.finalist_origins[rank], FinalistOrigin::WholeRegion(kGraphRuntime));
  }
}

TEST(GraphSearchTest, MergingWinsWhenEveryOpIsFasterInOnePartition) {
  ChainSearch chain;
  chain.latency.fast_ops = {"nn.relu", "tanh", "exp"};
  const GraphSearchResult result = chain.Run(SmallBudget(2), chain.latency);
  ASSERT_TRUE(result.replaced);
  ASSERT_EQ(result.chosen.size(), 1u);
  EXPECT_EQ(result.chosen[0].backend(), kGraphRuntime);
  EXPECT_EQ(result.chosen[0].sub_graph().inside().Count(), kChainOps.size());
  EXPECT_DOUBLE_EQ(result.description.best_fitness, 1e-3 + 0.1e-3 * kChainOps.size());
}

TEST(GraphSearchTest, KeepsTheOpLevelPlanWhenNothingBeatsIt) {
  ChainSearch chain;
  chain.latency.fast_ops = {};
  const GraphSearchResult result = chain.Run(SmallBudget(3), chain.latency);
  EXPECT_FALSE(result.replaced);
  EXPECT_EQ(PlanHash(result.chosen), PlanHash(chain.op_level.chosen));
  EXPECT_DOUBLE_EQ(result.description.best_fitness, result.description.op_level_fitness);
  EXPECT_TRUE(result.description.changed_nodes.empty());
}

TEST(GraphSearchTest, MinimumImprovementGuardsTheReplacement) {
  ChainSearch chain;
  GraphSearchOptions options = SmallBudget(1);
  options.min_improvement = 0.9;  // the optimum is not 10x faster
  const GraphSearchResult result = chain.Run(options, chain.latency);
  EXPECT_FALSE(result.replaced);
  EXPECT_LT(result.description.best_fitness, result.description.op_level_fitness);
  EXPECT_EQ(PlanHash(result.chosen), PlanHash(chain.op_level.chosen));
}

TEST(GraphSearchTest, TheSameSeedGivesTheSamePlacementAndEachPlanIsMeasuredOnce) {
  ChainSearch chain;
  std::multiset<uint64_t> measured;
  const PlacementFitness counting = [&](const std::vector<CandidatePartition>& placement) {
    measured.insert(PlanHash(placement));
    return chain.latency(placement);
  };
  GraphSearchOptions options = SmallBudget(5);
  options.evolution.generations = 6;
  const GraphSearchResult first = chain.Run(options, counting);
  EXPECT_EQ(std::set<uint64_t>(measured.begin(), measured.end()).size(), measured.size());
  EXPECT_EQ(measured.size(), first.description.stats.evaluations + 1);  // + the op-level plan
  EXPECT_GT(first.description.stats.cache_hits, 0u);
  const GraphSearchResult second = chain.Run(options, counting);
  EXPECT_EQ(PlanHash(first.chosen), PlanHash(second.chosen));
  EXPECT_EQ(first.description.stats.best_per_generation, second.description.stats.best_per_generation);
  EXPECT_EQ(first.description.ToString(), second.description.ToString());
}

TEST(GraphSearchTest, DescriptionSaysWhatChanged) {
  // relu, tanh, tanh: the best plan moves both tanh to one graph partition.
  const Function function = MakeOpChain({"nn.relu", "tanh", "tanh"});
  MockCostEstimator estimator(EstimatedCost);
  const OpLevelPlacement op_level =
      PlaceOpLevel(function, LibAndGraphSpecs({"nn.relu", "tanh"}, {"nn.relu", "tanh"}), estimator);
  const MockPlanLatency latency{&op_level.graph, {"tanh"}};
  GraphSearchOptions options = SmallBudget(1);
  options.evolution.population = 4;
  options.evolution.generations = 4;
  const GraphSearchResult result = SearchGraphPlacement(op_level.graph, op_level.candidates, op_level.chosen,
                                                        {kGraphRuntime}, estimator, latency, options);
  ASSERT_TRUE(result.replaced);
  const std::string text = result.description.ToString();
  EXPECT_NE(text.find("graph-level search offering regions to graph: 3 genes, 4 generations"), std::string::npos) << text;
  EXPECT_NE(text.find("fitness: op-level 3 ms, best 2.2 ms (-26.7%): replaced the op-level plan"), std::string::npos)
      << text;
  EXPECT_NE(text.find("changed nodes:\n  node 2 tanh: lib -> graph\n  node 3 tanh: lib -> graph\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("removed partitions:\n  lib(tanh) {2}\n  lib(tanh) {3}\n"), std::string::npos) << text;
  EXPECT_NE(text.find("added partitions:\n  graph(tanh+tanh) {2, 3}\n"), std::string::npos) << text;
}

TEST(GraphSearchTest, FindsThePlacementThatNeedsTwoRegionSpecs) {
  // tanh, tanh, exp, exp: "graph" is fast on tanh and "blocked" on exp, each with 1 ms per
  // partition, so the optimum (2.4 ms against the op-level 4 ms) gives each its own run.
  const std::set<std::string> ops = {"tanh", "exp"};
  std::vector<PartitionSpec> specs = LibAndGraphSpecs(ops, ops);
  specs.push_back(MakeOpPredicateSpec(Declare("blocked", ops)));
  MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
    if (candidate.backend() == "blocked") return Cost::Seconds(1.5e-3 * static_cast<double>(OpCount(graph, candidate)));
    return EstimatedCost(graph, candidate);
  });
  const Function function = MakeOpChain({"tanh", "tanh", "exp", "exp"});
  const OpLevelPlacement op_level = PlaceOpLevel(function, specs, estimator);
  const PlacementFitness latency = [&](const std::vector<CandidatePartition>& placement) {
    double seconds = 0;
    for (const CandidatePartition& candidate : placement) {
      const std::string fast_op = candidate.backend() == kGraphRuntime ? "tanh" : "exp";
      if (candidate.backend() == "lib") {
        seconds += 1e-3 * static_cast<double>(OpCount(op_level.graph, candidate));
        continue;
      }
      if (candidate.backend() != kGraphRuntime && candidate.backend() != "blocked") continue;
      seconds += 1e-3;
      for (size_t node : candidate.sub_graph().inside().ToVector()) {
        seconds += OpName(op_level.graph, node) == fast_op ? 0.1e-3 : 1.5e-3;
      }
    }
    return seconds;
  };
  GraphSearchOptions options = SmallBudget(6);
  options.evolution.population = 8;
  options.evolution.generations = 20;
  const GraphSearchResult result = SearchGraphPlacement(op_level.graph, op_level.candidates, op_level.chosen,
                                                        {kGraphRuntime, "blocked"}, estimator, latency, options);
  ASSERT_TRUE(result.replaced);
  EXPECT_NEAR(result.description.best_fitness, 2.4e-3, 1e-12);
  std::set<std::string> runs;
  for (const CandidatePartition& candidate : result.chosen) {
    runs.insert(candidate.backend() + candidate.sub_graph().inside().ToString());
  }
  EXPECT_EQ(runs, (std::set<std::string>{"graph{1, 2}", "blocked{3, 4}"}));
  EXPECT_NE(result.description.ToString().find("offering regions to graph blocked: 4 genes"), std::string::npos)
      << result.description.ToString();
  EXPECT_FALSE(result.op_level_is_whole_region);

  // Started from graph's whole region, with genes left for "blocked": the op-level placement is
  // said to be a whole region, and blocked's whole region is still a finalist.
  const GraphPlacementSpace space(op_level.graph, op_level.candidates, op_level.chosen, {kGraphRuntime, "blocked"},
                                  estimator);
  const std::vector<CandidatePartition> all_graph = space.Decode(space.AllTo(kGraphRuntime)).chosen;
  const GraphSearchResult from_whole = SearchGraphPlacement(op_level.graph, op_level.candidates, all_graph,
                                                            {kGraphRuntime, "blocked"}, estimator, latency, options);
  EXPECT_NE(from_whole.description.genes, 0u);
  EXPECT_TRUE(from_whole.op_level_is_whole_region);
  ASSERT_FALSE(from_whole.finalist_origins.empty());
  EXPECT_EQ(from_whole.finalist_origins[0], FinalistOrigin::WholeRegion("blocked"));
}

// Placements of a final decision without a whole-region one: the op-level plan, then finalists.
std::vector<FinalMeasurement> Mixed(double op_level, const std::vector<double>& finalists) {
  std::vector<FinalMeasurement> placements = {{op_level, false, {}}};
  for (const double latency : finalists) placements.push_back({latency, false, {}});
  return placements;
}

// A placement measured at `ms` in each of 25 rounds (a test changes some rounds, keeping `ms`
// their median).
FinalMeasurement Rounds(double ms, bool whole_region) {
  return FinalMeasurement{ms, whole_region, std::vector<double>(25, ms)};
}

TEST(GraphSearchTest, AMixedPlacementMustWinMostRoundsAgainstTheWholeRegion) {
  const FinalMeasurement whole = Rounds(10.0, /*whole_region=*/true);
  // 3 % faster by the median, but faster in only 13 of the 25 rounds (the others at the whole
  // region's 10 ms and a few disturbed ones slower): not a replacement.
  FinalMeasurement lucky = Rounds(9.7, false);
  for (size_t r = 13; r < 25; ++r) lucky.rounds[r] = 10.0 + 0.01 * static_cast<double>(r);
  EXPECT_EQ(ChooseFinalPlacement({whole, lucky}, 0.02), 0u);
  // Faster in 18 of 25 rounds and by 3 % in the median: it replaces the whole region (the
  // negative control of the test above).
  FinalMeasurement clear = Rounds(9.7, false);
  for (size_t r = 18; r < 25; ++r) clear.rounds[r] = 10.5;
  EXPECT_EQ(ChooseFinalPlacement({whole, clear}, 0.02), 1u);
  // 17 of 25 is not enough.
  clear.rounds[17] = 10.5;
  EXPECT_EQ(ChooseFinalPlacement({whole, clear}, 0.02), 0u);
  // Winning every round by 1 % is within the median threshold: no replacement either.
  EXPECT_EQ(ChooseFinalPlacement({whole, Rounds(9.9, false)}, 0.02), 0u);
}

TEST(GraphSearchTest, AnotherWholeRegionReplacesTheFirstOnlyWhenFasterInMostRounds) {
  // The op-level plan is a whole region (one backend alone in one partition); a finalist runs
  // the same backend alone with other boundary layouts, 2.7 % faster by the median but faster in
  // only 13 of the 25 rounds: the op-level plan stays.
  const FinalMeasurement op_level = Rounds(46.2, /*whole_region=*/true);
  FinalMeasurement relaid = Rounds(44.96, true);
  for (size_t r = 13; r < 25; ++r) relaid.rounds[r] = 47.0;
  EXPECT_EQ(ChooseFinalPlacement({op_level, relaid}, 0.02), 0u);
  // Faster in 22 of the 25 rounds: it replaces the op-level plan (the negative control).
  for (size_t r = 13; r < 22; ++r) relaid.rounds[r] = 44.96;
  EXPECT_EQ(ChooseFinalPlacement({op_level, relaid}, 0.02), 1u);
}

TEST(GraphSearchTest, AFinalistReplacesTheChoiceSoFarOnlyWhenClearlyFaster) {
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {9.0, 8.0, 9.5}), 0.02), 2u);
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {9.9, 9.85}), 0.02), 0u);  // within 2 %: keep the op-level plan
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {11.0, 12.0}), 0.0), 0u);
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {}), 0.0), 0u);
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {9.9}), 0.0), 1u);
  // A preferred (earlier) finalist is kept against a later one within 2 % of it...
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {9.0, 8.9, 12.0}), 0.02), 1u);
  // ...and loses to one clearly faster, whichever comes between.
  EXPECT_EQ(ChooseFinalPlacement(Mixed(10.0, {9.0, 8.9, 8.0}), 0.02), 3u);
  EXPECT_THROW(ChooseFinalPlacement({}, 0.02), Error);
}

TEST(GraphSearchTest, AMixedPlacementMustBeatTheFastestWholeRegionClearly) {
  // A mixed op-level plan within 2 % of running one backend alone does not replace it...
  EXPECT_EQ(ChooseFinalPlacement({{10.0, false, {}}, {10.1, true, {}}}, 0.02), 1u);
  // ...one clearly faster does (the negative control).
  EXPECT_EQ(ChooseFinalPlacement({{9.7, false, {}}, {10.0, true, {}}}, 0.02), 0u);
  // The fastest whole region is the first choice, whatever its rank; a mixed finalist then has
  // to beat it, not the op-level plan.
  EXPECT_EQ(ChooseFinalPlacement({{10.0, false, {}}, {9.9, true, {}}, {9.5, true, {}}, {9.4, false, {}}}, 0.02), 2u);
  EXPECT_EQ(ChooseFinalPlacement({{10.0, false, {}}, {9.9, true, {}}, {9.5, true, {}}, {9.0, false, {}}}, 0.02), 3u);
  // An op-level plan that is a whole region competes as one: the fastest wins outright.
  EXPECT_EQ(ChooseFinalPlacement({{10.0, true, {}}, {9.9, true, {}}, {9.85, false, {}}}, 0.02), 1u);
  EXPECT_EQ(ChooseFinalPlacement({{9.8, true, {}}, {9.9, true, {}}, {9.85, false, {}}}, 0.02), 0u);
}

size_t PartitionsOf(const Function& function, const std::string& backend) {
  size_t count = 0;
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* callee = call ? As<FunctionNode>(call->callee) : nullptr;
    if (callee != nullptr && callee->attrs.GetString(attr::kCompiler) == backend) ++count;
  }
  return count;
}

TEST(GraphSearchTest, PartitionWithGraphSearchOutlinesTheChoiceMeasuredOnOutlinedFunctions) {
  // The "measurement" runs on the outlined function: one graph partition is best, fewer
  // library partitions next.
  const Function function = MakeOpChain({"tanh", "nn.relu", "tanh"});
  InferType(function);
  const PlacementFitness fitness = FitnessOfOutlined(function, [](const Function& outlined) {
    return PartitionsOf(outlined, kGraphRuntime) == 1 ? 1e-3 * static_cast<double>(PartitionsOf(outlined, "lib"))
                                                      : 1.0;
  });
  MockCostEstimator estimator(EstimatedCost);
  GraphSearchOptions options = SmallBudget(4);
  NameSupply names;
  const GraphPartitionResult result =
      PartitionWithGraphSearch(function, LibAndGraphSpecs({"nn.relu", "tanh"}, {"nn.relu", "tanh"}), estimator, {},
                               {kGraphRuntime}, fitness, options, &names);
  ASSERT_TRUE(result.search.replaced);
  EXPECT_EQ(result.search.description.best_fitness, 0.0);
  EXPECT_EQ(PartitionsOf(result.partition.function, kGraphRuntime), 1u);
  EXPECT_EQ(PartitionsOf(result.partition.function, "lib"), 0u);
  EXPECT_EQ(result.partition.symbols.size(), result.partition.chosen.size());
  // The finalists are outlined too, each numbered from the same first symbol.
  ASSERT_FALSE(result.finalists.empty());
  EXPECT_EQ(PrintFunction(result.finalists[0].function), PrintFunction(result.partition.function));
  size_t most_partitions = 0;
  for (const PartitionResult& finalist : result.finalists) {
    size_t partitions = 0;
    for (const std::string& symbol : finalist.symbols) partitions += symbol.empty() ? 0 : 1;
    most_partitions = std::max(most_partitions, partitions);
  }
  EXPECT_EQ(names.handed_out(), most_partitions);

  EXPECT_THROW(PartitionWithGraphSearch(function, LibAndGraphSpecs({"nn.relu", "tanh"}, {"nn.relu", "tanh"}),
                                        estimator, {}, {"xnnpack"}, fitness, options),
               Error);
}

TEST(GraphSearchTest, AnAloneSpecsOwnPlacementIsAFinalistAfterTheWholeRegionOnes) {
  // "gen" runs every op and takes no regions; the op-level search prefers "lib" everywhere.
  const Function function = MakeOpChain({"tanh", "nn.relu", "tanh"});
  InferType(function);
  std::vector<PartitionSpec> specs = LibAndGraphSpecs({"nn.relu", "tanh"}, {"nn.relu", "tanh"});
  specs.insert(specs.begin(), MakeOpPredicateSpec(Declare("gen", {"nn.relu", "tanh"})));
  MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
    if (candidate.backend() == "gen") return Cost::Seconds(2e-3 * static_cast<double>(OpCount(graph, candidate)));
    return EstimatedCost(graph, candidate);
  });
  const PlacementFitness fitness = FitnessOfOutlined(function, [](const Function&) { return 1.0; });
  GraphSearchOptions options = SmallBudget(5);
  options.alone_specs = {"gen"};
  const GraphPartitionResult result =
      PartitionWithGraphSearch(function, specs, estimator, {}, {kGraphRuntime}, fitness, options);
  ASSERT_GE(result.search.finalist_origins.size(), 2u);
  EXPECT_FALSE(result.search.op_level_is_whole_region);
  EXPECT_EQ(result.search.finalist_origins[0], FinalistOrigin::WholeRegion(kGraphRuntime));
  EXPECT_EQ(result.search.finalist_origins[1].ToString(), "all gen");
  ASSERT_EQ(result.finalists.size(), result.search.finalists.size());
  const Function& alone = result.finalists[1].function;
  EXPECT_GE(PartitionsOf(alone, "gen"), 1u) << PrintFunction(alone);
  EXPECT_EQ(PartitionsOf(alone, "lib") + PartitionsOf(alone, kGraphRuntime), 0u) << PrintFunction(alone);
  for (size_t rank = 2; rank < result.search.finalist_origins.size(); ++rank) {
    EXPECT_EQ(result.search.finalist_origins[rank].kind, FinalistOrigin::Kind::kBestByFitness)
        << result.search.finalist_origins[rank].ToString();
  }

  // An alone spec equal to the op-level placement adds no finalist; an unknown one is an Error.
  options.alone_specs = {"lib"};
  const GraphPartitionResult lib_alone =
      PartitionWithGraphSearch(function, specs, estimator, {}, {kGraphRuntime}, fitness, options);
  for (const FinalistOrigin& origin : lib_alone.search.finalist_origins) {
    EXPECT_NE(origin, FinalistOrigin::WholeRegion("lib"));
  }
  EXPECT_TRUE(lib_alone.search.op_level_is_whole_region);  // it is lib's placement alone
  options.alone_specs = {"xnnpack"};
  EXPECT_THROW(PartitionWithGraphSearch(function, specs, estimator, {}, {kGraphRuntime}, fitness, options), Error);
}

TEST(GraphSearchTest, TheOpLevelPlacementWithoutTransitionPenaltyIsAFinalistAfterTheAloneOnes) {
  // "gen" runs nn.relu only, cheaper than "lib"; a 1 ms penalty per hand-over between specs
  // makes the op-level search keep the chain on "lib", and without it nn.relu goes to "gen".
  const Function function = MakeOpChain({"tanh", "nn.relu", "tanh"});
  InferType(function);
  std::vector<PartitionSpec> specs = LibAndGraphSpecs({"nn.relu", "tanh"}, {"nn.relu", "tanh"});
  specs.insert(specs.begin(), MakeOpPredicateSpec(Declare("gen", {"nn.relu"})));
  MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
    if (candidate.backend() == "gen") return Cost::Seconds(0.2e-3 * static_cast<double>(OpCount(graph, candidate)));
    return EstimatedCost(graph, candidate);
  });
  PartitionOptions with_penalty;
  with_penalty.search.transition_penalty = [](const PartitionSide& producer, const PartitionSide& consumer, size_t,
                                              const DataflowGraph&) {
    return producer.spec.empty() || consumer.spec.empty() ? 0.0 : 1e-3;
  };
  const PlacementFitness fitness = FitnessOfOutlined(function, [](const Function&) { return 1.0; });
  const GraphSearchOptions options = SmallBudget(6);
  const GraphPartitionResult result =
      PartitionWithGraphSearch(function, specs, estimator, with_penalty, {kGraphRuntime}, fitness, options);
  EXPECT_EQ(PartitionsOf(result.partition.function, "gen"), 0u) << PrintFunction(result.partition.function);
  const auto origin = std::find(result.search.finalist_origins.begin(), result.search.finalist_origins.end(),
                                FinalistOrigin::PenaltyFree());
  ASSERT_NE(origin, result.search.finalist_origins.end());
  const size_t index = static_cast<size_t>(origin - result.search.finalist_origins.begin());
  EXPECT_EQ(result.search.finalist_origins[index - 1].kind, FinalistOrigin::Kind::kWholeRegion);
  ASSERT_EQ(result.finalists.size(), result.search.finalists.size());
  const Function& penalty_free = result.finalists[index].function;
  EXPECT_EQ(PartitionsOf(penalty_free, "gen"), 1u) << PrintFunction(penalty_free);
  EXPECT_EQ(PartitionsOf(penalty_free, kGraphRuntime), 0u) << PrintFunction(penalty_free);

  // Without a penalty there is no such finalist: it would be the op-level placement.
  const GraphPartitionResult unpenalized =
      PartitionWithGraphSearch(function, specs, estimator, {}, {kGraphRuntime}, fitness, options);
  EXPECT_EQ(std::count(unpenalized.search.finalist_origins.begin(), unpenalized.search.finalist_origins.end(),
                       FinalistOrigin::PenaltyFree()),
            0);
}


// The op-level placement holds two graph-runtime partitions whose boundaries differ (relu
// leaves channel-blocked values, tanh takes them and gives plain ones): merged, one plain
// partition keeps the blocked value inside. It is a finalist when the spec's candidates are
// offered in the plain boundary, and only then.
TEST(GraphSearchTest, TheOpLevelPlacementMergedAcrossLayoutsIsAFinalist) {
  const Var x = MakeVar("x", testing::F32({1, 16, 4, 4}));
  const Function function = MakeFunction({x}, CallOp("tanh", {CallOp("nn.relu", {x})}));
  const DataflowGraph graph = GraphOf(function);
  const auto search = [&](std::vector<Layout> uniform) {
    SupportDeclaration declaration = Declare(kGraphRuntime, {"nn.relu", "tanh"});
    declaration.boundary_layouts = std::move(uniform);
    declaration.mixed_boundary_layouts = {{Layout::kPlain, Layout::kChannelBlocked8},
                                          {Layout::kChannelBlocked8, Layout::kPlain}};
    std::vector<CandidatePartition> candidates = MakeOpPredicateSpec(declaration).AllCandidates(graph);
    std::vector<CandidatePartition> op_level;
    for (const auto& [op, boundary] : {std::pair{"nn.relu", "plain>nchw8c"}, std::pair{"tanh", "nchw8c>plain"}}) {
      for (const CandidatePartition& candidate : candidates) {
        if (OpCount(graph, candidate) == 1 && OpName(graph, candidate.sub_graph().first_inside()) == op &&
            PartitionLayoutsName(candidate.boundary_layouts()) == boundary) {
          op_level.push_back(candidate);
        }
      }
    }
    EXPECT_EQ(op_level.size(), 2u);
    MockCostEstimator estimator{EstimatedCost};
    const PlacementFitness fitness = [](const std::vector<CandidatePartition>& chosen) {
      return 1e-3 * static_cast<double>(chosen.size());
    };
    return SearchGraphPlacement(graph, candidates, op_level, {kGraphRuntime}, estimator, fitness, SmallBudget(1));
  };
  const GraphSearchResult offered = search({Layout::kPlain, Layout::kChannelBlocked8});
  ASSERT_EQ(offered.finalist_origins.size(), 1u);
  EXPECT_EQ(offered.finalist_origins[0], FinalistOrigin::MergedAcrossLayouts());
  ASSERT_EQ(offered.finalists[0].size(), 1u);
  EXPECT_EQ(offered.finalists[0][0].boundary_layouts(), PartitionLayouts::Uniform(Layout::kPlain));
  EXPECT_EQ(OpCount(graph, offered.finalists[0][0]), 2u);

  // Without a plain boundary on offer they merge only by changing the layout of a value crossing
  // the merged partition: x read blocked, or the result left blocked (equal bytes; the first
  // in the order tried, the first partition's parameters and results, wins).
  const GraphSearchResult blocked = search({Layout::kChannelBlocked8});
  ASSERT_EQ(blocked.finalist_origins.size(), 1u);
  EXPECT_EQ(blocked.finalist_origins[0], FinalistOrigin::MergedChangingLayouts());
  ASSERT_EQ(blocked.finalists[0].size(), 1u);
  EXPECT_EQ(PartitionLayoutsName(blocked.finalists[0][0].boundary_layouts()), "plain>nchw8c");
}

// The graph runtime's whole region, covered by its cheapest candidates, alternates boundary
// layouts (relu is cheap read and written plain, tanh channel-blocked) and has no mixed
// boundary: merged keeping the bytes that cross it, it stays two partitions converting between
// them; merged changing them, it is one partition, as running the runtime alone is. That one is
// the next finalist.
TEST(GraphSearchTest, TheWholeRegionMergedChangingLayoutsIsAFinalist) {
  const Var x = MakeVar("x", testing::F32({1, 16, 4, 4}));
  const Function function = MakeFunction({x}, CallOp("tanh", {CallOp("nn.relu", {x})}));
  const DataflowGraph graph = GraphOf(function);
  SupportDeclaration runtime = Declare(kGraphRuntime, {"nn.relu", "tanh"});
  runtime.boundary_layouts = {Layout::kPlain, Layout::kChannelBlocked8};
  std::vector<CandidatePartition> candidates = MakeOpPredicateSpec(runtime).AllCandidates(graph);
  for (CandidatePartition& candidate : MakeOpPredicateSpec(Declare("lib", {"nn.relu", "tanh"})).AllCandidates(graph)) {
    candidates.push_back(std::move(candidate));
  }
  MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
    if (OpCount(graph, candidate) != 1) return Cost::Invalid();
    if (candidate.backend() == "lib") return Cost::Seconds(1e-3);
    const std::string op = OpName(graph, candidate.sub_graph().first_inside());
    const Layout cheap = op == "nn.relu" ? Layout::kPlain : Layout::kChannelBlocked8;
    return Cost::Seconds(candidate.boundary_layouts() == PartitionLayouts::Uniform(cheap) ? 2e-3 : 5e-3);
  });
  std::vector<CandidatePartition> op_level;
  for (const CandidatePartition& candidate : candidates) {
    if (candidate.backend() == "lib" && OpCount(graph, candidate) == 1) op_level.push_back(candidate);
  }
  ASSERT_EQ(op_level.size(), 2u);
  const PlacementFitness fitness = [](const std::vector<CandidatePartition>& chosen) {
    return 1e-3 * static_cast<double>(chosen.size());
  };
  const GraphSearchResult result =
      SearchGraphPlacement(graph, candidates, op_level, {kGraphRuntime}, estimator, fitness, SmallBudget(1));
  ASSERT_GE(result.finalist_origins.size(), 2u);
  EXPECT_EQ(result.finalist_origins[0], FinalistOrigin::WholeRegion(kGraphRuntime));
  ASSERT_EQ(result.finalists[0].size(), 2u);
  EXPECT_EQ(result.finalists[0][0].boundary_layouts(), PartitionLayouts::Uniform(Layout::kPlain));
  EXPECT_EQ(result.finalists[0][1].boundary_layouts(), PartitionLayouts::Uniform(Layout::kChannelBlocked8));
  EXPECT_EQ(result.finalist_origins[1], FinalistOrigin::WholeRegionChangingLayouts(kGraphRuntime));
  ASSERT_EQ(result.finalists[1].size(), 1u);
  EXPECT_EQ(result.finalists[1][0].backend(), kGraphRuntime);
  EXPECT_EQ(OpCount(graph, result.finalists[1][0]), 2u);
}

}  // namespace
}  // namespace collage
