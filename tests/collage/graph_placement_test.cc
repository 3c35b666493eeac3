#include "collage/graph_placement.h"

#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "collage/coalesce_partitions.h"
#include "collage/outline_partitions.h"
#include "interpreter/interpreter.h"
#include "graph_search_test_util.h"
#include "pattern/pattern_parser.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using namespace collage_testing;

// A function with its op-level placement over the mock costs.
struct PlacedFunction {
  Function function;
  OpLevelPlacement op_level;
  MockCostEstimator estimator{EstimatedCost};

  PlacedFunction(Function function_in, const std::vector<PartitionSpec>& specs) : function(std::move(function_in)) {
    op_level = PlaceOpLevel(function, specs, estimator);
  }
  GraphPlacementSpace Space() {
    return GraphPlacementSpace(op_level.graph, op_level.candidates, op_level.chosen, {kGraphRuntime}, estimator);
  }
};

// Every node in exactly one partition, each partition convex, the groups acyclic, and the
// placement outlines into a function that computes the original's outputs.
void ExpectValid(const Function& function, const DataflowGraph& graph, const GraphPlacement& placement) {
  std::vector<int> covered(graph.size(), 0);
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  for (const CandidatePartition& candidate : placement.chosen) {
    EXPECT_TRUE(candidate.sub_graph().IsValid(graph, convex_only)) << candidate.ToString();
    for (size_t node : candidate.sub_graph().inside().ToVector()) ++covered[node];
  }
  for (size_t node = 0; node < graph.size(); ++node) {
    if (graph.node(node).expr->kind() == ExprKind::kVar) continue;
    EXPECT_EQ(covered[node], 1) << "node " << node;
  }
  EXPECT_TRUE(GroupsAreAcyclic(graph, InsideSets(placement.chosen)));
  EXPECT_EQ(placement.hash, PlanHash(placement.chosen));
  // The outlined function computes what the original does, bit for bit (the same kernels).
  NameSupply names;
  Function outlined;
  try {
    outlined = OutlinePartitions(function, graph, placement.chosen, names);
  } catch (const Error& error) {
    ADD_FAILURE() << "outlining failed: " << error.what();
    return;
  }
  const std::vector<Value> args = RandomArguments(function, placement.hash);
  const std::vector<Tensor> expected = Evaluate(function, args).Flatten();
  const std::vector<Tensor> actual = Evaluate(outlined, args).Flatten();
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_TRUE(actual[i].BitwiseEqual(expected[i])) << "output " << i;
}

size_t GraphRuntimePartitions(const GraphPlacement& placement) {
  size_t count = 0;
  for (const CandidatePartition& candidate : placement.chosen) count += candidate.backend() == kGraphRuntime ? 1 : 0;
  return count;
}

TEST(GraphPlacementTest, GenesAreTheGraphRuntimeOpsTheOpLevelPlanLeftElsewhere) {
  // Diamond x -> relu(1), tanh(2) -> add(3). The graph runtime runs relu, tanh and add; its
  // relu alone is cheapest, so the op-level plan already gives it relu: no gene for node 1.
  MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
    if (candidate.backend() == kGraphRuntime && OpCount(graph, candidate) == 1 &&
        OpName(graph, candidate.sub_graph().first_inside()) == "nn.relu") {
      return Cost::Seconds(0.5e-3);
    }
    return EstimatedCost(graph, candidate);
  });
  const Function function = MakeDiamond();
  const OpLevelPlacement op_level = PlaceOpLevel(
      function, LibAndGraphSpecs({"nn.relu", "tanh", "add"}, {"nn.relu", "tanh", "add"}), estimator);
  const GraphPlacementSpace space(op_level.graph, op_level.candidates, op_level.chosen, {kGraphRuntime}, estimator);
  EXPECT_EQ(space.gene_nodes(), (std::vector<size_t>{2, 3}));
}

TEST(GraphPlacementTest, AllZeroIsTheOpLevelPlanAndAllOneMergesIntoOnePartition) {
  PlacedFunction setup(MakeOpChain({"nn.relu", "tanh", "exp", "nn.relu"}), LibAndGraphSpecs({"nn.relu", "tanh", "exp"},
                                                                                    {"nn.relu", "tanh", "exp"}));
  const GraphPlacementSpace space = setup.Space();
  ASSERT_EQ(space.genes(), 4u);
  const GraphPlacement op_level = space.Decode(Genome(4, 0));
  EXPECT_EQ(op_level.hash, PlanHash(setup.op_level.chosen));
  EXPECT_EQ(GraphRuntimePartitions(op_level), 0u);

  const GraphPlacement all_graph = space.Decode(Genome(4, 1));
  ExpectValid(setup.function, setup.op_level.graph, all_graph);
  ASSERT_EQ(all_graph.chosen.size(), 1u);
  EXPECT_EQ(all_graph.chosen[0].backend(), kGraphRuntime);
  EXPECT_EQ(all_graph.chosen[0].sub_graph().inside().ToString(), "{1, 2, 3, 4}");
  EXPECT_EQ(all_graph.unhonoured_genes, 0u);

  // Genes 1 0 1 1: two graph partitions {1} and {3, 4} around the library's exp.
  const GraphPlacement split = space.Decode(Genome{1, 0, 1, 1});
  ExpectValid(setup.function, setup.op_level.graph, split);
  EXPECT_EQ(GraphRuntimePartitions(split), 2u);
  EXPECT_NE(split.hash, all_graph.hash);
  EXPECT_EQ(space.Decode(Genome{1, 0, 1, 1}).hash, split.hash);
}

TEST(GraphPlacementTest, GenesWithoutAFittingGraphRuntimeCandidateAreRepaired) {
  // The graph runtime only has the pattern relu -> tanh: a 1 on one of them with a 0 on the
  // other cannot be honoured, since the 0 keeps its op-level partition and the pattern needs
  // both nodes; the repair leaves the 1-node on the library.
  SupportDeclaration graph_declaration;
  graph_declaration.backend = kGraphRuntime;
  graph_declaration.patterns = {{"graph.relu_tanh", ParsePattern("tanh(nn.relu(*))"), {}}};
  PlacedFunction setup(MakeOpChain({"nn.relu", "tanh", "exp"}),
              {MakeOpPredicateSpec(Declare("lib", {"nn.relu", "tanh", "exp"})), MakePartitionSpec(graph_declaration),
               MakeHostSpec()});
  const GraphPlacementSpace space = setup.Space();
  ASSERT_EQ(space.gene_nodes(), (std::vector<size_t>{1, 2}));
  for (const Genome& genome : {Genome{1, 0}, Genome{0, 1}}) {
    const GraphPlacement placement = space.Decode(genome);
    ExpectValid(setup.function, setup.op_level.graph, placement);
    EXPECT_EQ(placement.unhonoured_genes, 1u);
    EXPECT_EQ(GraphRuntimePartitions(placement), 0u);
  }
  const GraphPlacement both = space.Decode(Genome{1, 1});
  EXPECT_EQ(both.unhonoured_genes, 0u);
  EXPECT_EQ(GraphRuntimePartitions(both), 1u);
}

// A graph runtime with one pattern per pair of the given unary ops, one feeding the other.
SupportDeclaration UnaryPairPatterns(const std::set<std::string>& ops) {
  SupportDeclaration declaration;
  declaration.backend = kGraphRuntime;
  for (const std::string& inner : testing::RandomGraphUnaryOps()) {
    for (const std::string& outer : testing::RandomGraphUnaryOps()) {
      if (!ops.count(inner) || !ops.count(outer)) continue;
      declaration.patterns.push_back(
          {"graph." + inner + "_" + outer, ParsePattern(outer + "(" + inner + "(*))"), {}});
    }
  }
  return declaration;
}

TEST(GraphPlacementTest, RandomGenesAlwaysGiveValidPlacements) {
  std::mt19937_64 random(3);
  size_t decoded = 0;
  size_t repaired = 0;
  const std::vector<std::string>& unary = testing::RandomGraphUnaryOps();
  const std::vector<std::string>& binary = testing::RandomGraphBinaryOps();
  std::set<std::string> all_ops(unary.begin(), unary.end());
  all_ops.insert(binary.begin(), binary.end());
  for (uint64_t seed = 0; seed < 40; ++seed) {
    // The graph runtime runs a random half of the ops (on odd seeds only as pairs, so some
    // genes cannot be honoured); a fusing code generator proposes multi-node candidates so
    // op-level partitions span several nodes.
    std::set<std::string> graph_ops;
    for (const std::string& op : all_ops) {
      if (random() % 2) graph_ops.insert(op);
    }
    std::vector<PartitionSpec> specs = LibAndGraphSpecs(all_ops, graph_ops);
    if (const SupportDeclaration pairs = UnaryPairPatterns(graph_ops); seed % 2 && !pairs.patterns.empty()) {
      specs[1] = MakePartitionSpec(pairs);
    }
    specs.push_back(MakeCodeGeneratorSpec("fuser"));
    MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
      if (candidate.backend() == "fuser") return Cost::Seconds(0.4e-3 + 0.3e-3 * OpCount(graph, candidate));
      return EstimatedCost(graph, candidate);
    });
    const Function function = testing::MakeRandomDag(seed, 6 + static_cast<int>(seed % 10));
    const OpLevelPlacement op_level = PlaceOpLevel(function, specs, estimator);
    // Every third seed also offers regions to the fuser: genes of 3 values.
    const std::vector<std::string> region_specs =
        seed % 3 == 0 ? std::vector<std::string>{kGraphRuntime, "fuser"} : std::vector<std::string>{kGraphRuntime};
    const GraphPlacementSpace space(op_level.graph, op_level.candidates, op_level.chosen, region_specs, estimator);
    for (int trial = 0; trial < 15 && space.genes() > 0; ++trial) {
      Genome genome(space.genes());
      for (uint8_t& gene : genome) gene = static_cast<uint8_t>(random() % space.gene_values());
      const GraphPlacement placement = space.Decode(genome);
      SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial));
      ExpectValid(function, op_level.graph, placement);
      EXPECT_EQ(space.Decode(genome).hash, placement.hash);
      ++decoded;
      repaired += placement.unhonoured_genes > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(decoded, 300u);
  EXPECT_GT(repaired, 0u);  // the repair path was exercised
  std::cout << decoded << " random genomes decoded, " << repaired << " needed a repair\n";
}

TEST(GraphPlacementTest, TwoRegionSpecsTakeTheRegionsTheirGenesAsk) {
  // relu, tanh, exp, relu (nodes 1..4). "lib" runs single ops at 1 ms; "graph" and "blocked"
  // run every op at 1.5 ms per op, except that "blocked" runs a lone relu at 0.5 ms, so the
  // op-level plan is blocked, lib, lib, blocked.
  const std::set<std::string> ops = {"nn.relu", "tanh", "exp"};
  std::vector<PartitionSpec> specs = LibAndGraphSpecs(ops, ops);
  specs.push_back(MakeOpPredicateSpec(Declare("blocked", ops)));
  MockCostEstimator estimator([](const DataflowGraph& graph, const CandidatePartition& candidate) {
    if (candidate.backend() != "blocked") return EstimatedCost(graph, candidate);
    const size_t ops = OpCount(graph, candidate);
    if (ops == 1 && OpName(graph, candidate.sub_graph().first_inside()) == "nn.relu") return Cost::Seconds(0.5e-3);
    return Cost::Seconds(1.5e-3 * static_cast<double>(ops));
  });
  const Function function = MakeOpChain({"nn.relu", "tanh", "exp", "nn.relu"});
  const OpLevelPlacement op_level = PlaceOpLevel(function, specs, estimator);
  const GraphPlacementSpace space(op_level.graph, op_level.candidates, op_level.chosen, {kGraphRuntime, "blocked"},
                                  estimator);
  ASSERT_EQ(space.gene_nodes(), (std::vector<size_t>{1, 2, 3, 4}));
  EXPECT_EQ(space.gene_values(), 3u);

  const GraphPlacement op_level_placement = space.Decode(Genome(4, 0));
  EXPECT_EQ(op_level_placement.hash, PlanHash(op_level.chosen));
  // A gene naming the node's op-level spec keeps it.
  EXPECT_EQ(space.Decode(Genome{2, 0, 0, 2}).hash, op_level_placement.hash);

  const GraphPlacement all_blocked = space.Decode(space.AllTo("blocked"));
  ExpectValid(function, op_level.graph, all_blocked);
  ASSERT_EQ(all_blocked.chosen.size(), 1u);
  EXPECT_EQ(all_blocked.chosen[0].backend(), "blocked");
  EXPECT_EQ(all_blocked.unhonoured_genes, 0u);

  // graph on relu and tanh, blocked on exp and the last relu (kept there): two merged regions.
  const GraphPlacement mixed = space.Decode(Genome{1, 1, 2, 2});
  ExpectValid(function, op_level.graph, mixed);
  ASSERT_EQ(mixed.chosen.size(), 2u);
  EXPECT_EQ(mixed.chosen[0].backend(), kGraphRuntime);
  EXPECT_EQ(mixed.chosen[0].sub_graph().inside().ToString(), "{1, 2}");
  EXPECT_EQ(mixed.chosen[1].backend(), "blocked");
  EXPECT_EQ(mixed.chosen[1].sub_graph().inside().ToString(), "{3, 4}");
  EXPECT_EQ(mixed.unhonoured_genes, 0u);

  EXPECT_THROW(space.Decode(Genome{3, 0, 0, 0}), Error);
  EXPECT_THROW(space.AllTo("lib"), Error);
  EXPECT_THROW(GraphPlacementSpace(op_level.graph, op_level.candidates, op_level.chosen, {"blocked", "blocked"},
                                   estimator),
               Error);
  EXPECT_THROW(GraphPlacementSpace(op_level.graph, op_level.candidates, op_level.chosen, {}, estimator), Error);
}

TEST(GraphPlacementTest, NoGenesWithoutGraphRuntimeCandidatesAndWrongGenomesAreRejected) {
  PlacedFunction setup(MakeUnaryChain(), LibAndGraphSpecs({"nn.relu", "tanh", "exp"}, {"tanh"}));
  EXPECT_EQ(GraphPlacementSpace(setup.op_level.graph, setup.op_level.candidates, setup.op_level.chosen, {"nope"},
                                setup.estimator)
                .genes(),
            0u);
  EXPECT_EQ(setup.Space().genes(), 1u);
  EXPECT_THROW(setup.Space().Decode(Genome(5, 0)), Error);
}

}  // namespace
}  // namespace collage
