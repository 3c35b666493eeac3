#include "collage/partitioner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <random>
#include <set>

#include "collage/partition_spec.h"
#include "collage_test_graphs.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "pattern/pattern_parser.h"
#include "testing/random_graphs.h"
#include "testing/transformer_graph.h"

namespace collage {
namespace {

bool MergeAll(const CandidatePartition&) { return true; }

using collage_testing::Declare;

struct Placed {
  std::string backend;
  std::string symbol;
  size_t ops = 0;
};

std::vector<Placed> Partitions(const Function& function) {
  std::vector<Placed> partitions;
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* callee = call ? As<FunctionNode>(call->callee) : nullptr;
    if (callee == nullptr) continue;
    Placed placed{callee->attrs.GetString(attr::kCompiler), callee->attrs.GetString(attr::kGlobalSymbol), 0};
    EXPECT_EQ(callee->attrs.GetInt(attr::kPrimitive), 1);
    for (const Expr& inner : PostOrder(callee->body)) {
      if (const auto* op_call = As<CallNode>(inner); op_call && op_call->op()) ++placed.ops;
    }
    partitions.push_back(placed);
  }
  return partitions;
}

void ExpectSameOutputs(const Function& original, const Function& partitioned, uint64_t seed) {
  const std::vector<Value> args = RandomArguments(original, seed);
  const std::vector<Tensor> expected = Evaluate(original, args).Flatten();
  const std::vector<Tensor> actual = Evaluate(partitioned, args).Flatten();
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t t = 0; t < expected.size(); ++t) EXPECT_TRUE(expected[t].BitwiseEqual(actual[t])) << "seed " << seed;
}

Cost HashedCost(const DataflowGraph&, const CandidatePartition& candidate) {
  std::mt19937_64 random(std::hash<std::string>{}(candidate.sub_graph().inside().ToString() + candidate.spec_name()));
  return Cost::Seconds(std::uniform_real_distribution<double>(1.0, 10.0)(random));
}

std::vector<PartitionSpec> RandomDagSpecs() {
  return {MakeOpPredicateSpec(Declare("a", {"nn.relu", "add", "tanh", "multiply"})),
          MakeOpPredicateSpec(Declare("b", {"sigmoid", "negative", "abs", "subtract", "maximum", "add"})),
          MakeCodeGeneratorSpec("tvm"), MakeHostSpec()};
}

TEST(PartitionerTest, PartitionedRandomDagsComputeTheSameOutputs) {
  const std::vector<PartitionSpec> specs = RandomDagSpecs();
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Function original = testing::MakeRandomDag(seed, 1 + static_cast<int>(seed % 12));
    MockCostEstimator estimator(HashedCost);
    for (bool coalesce : {false, true}) {
      const PartitionResult result =
          Partition(original, specs, estimator, {.search = {}, .coalesce = coalesce ? MergeAll : nullptr});
      const std::vector<Placed> partitions = Partitions(result.function);
      std::set<std::string> symbols;
      for (const Placed& placed : partitions) {
        EXPECT_TRUE(symbols.insert(placed.symbol).second) << placed.symbol;
        EXPECT_GT(placed.ops, 0u);
      }
      size_t outlined = 0;
      for (const CandidatePartition& chosen : result.chosen) outlined += chosen.backend() != "host";
      EXPECT_EQ(partitions.size(), outlined) << "seed " << seed;
      ExpectSameOutputs(original, result.function, seed);
    }
  }
}

TEST(PartitionerTest, CoalescingMergesTouchingPartitionsOfOneBackend) {
  const Function chain = collage_testing::MakeUnaryChain();
  const SubGraphConfig singletons{.max_exits = 1, .allow_taps = false, .max_depth = 1};
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("a", {"nn.relu", "tanh", "exp"}), singletons)};
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition&) { return Cost::Seconds(1); });
  EXPECT_EQ(Partitions(Partition(chain, specs, estimator).function).size(), 3u);
  const PartitionResult coalesced = Partition(chain, specs, estimator, {.search = {}, .coalesce = MergeAll});
  const std::vector<Placed> partitions = Partitions(coalesced.function);
  ASSERT_EQ(partitions.size(), 1u);
  EXPECT_EQ(partitions[0].ops, 3u);
  EXPECT_EQ(partitions[0].symbol, "a_0");
  ExpectSameOutputs(chain, coalesced.function, 5);
}

TEST(PartitionerTest, ConvBiasReluWithAnalyticCosts) {
  const Function original = testing::MakeConvBiasRelu();
  // The library runs conv2d fast but nothing else; tvm runs everything at half speed.
  AnalyticCostEstimator estimator({{"lib", BackendPerformance{.default_efficiency = 0.0, .op_efficiency = {{"nn.conv2d", 1.0}}}},
                                   {"tvm", BackendPerformance{}},
                                   {"host", BackendPerformance{}}});
  const std::vector<PartitionSpec> specs = {MakeOpPredicateSpec(Declare("lib", {"nn.conv2d"})),
                                            MakeCodeGeneratorSpec("tvm"), MakeHostSpec()};
  const PartitionResult result = Partition(original, specs, estimator);
  const std::vector<Placed> partitions = Partitions(result.function);
  ASSERT_FALSE(partitions.empty());
  size_t ops = 0;
  for (const Placed& placed : partitions) ops += placed.ops;
  EXPECT_EQ(ops, 3u);
  ExpectSameOutputs(original, result.function, 9);
  const PassContext context;
  const Module module = CollagePartition(specs, std::make_shared<AnalyticCostEstimator>(
                                                    std::map<std::string, BackendPerformance>{
                                                        {"lib", BackendPerformance{}}, {"tvm", BackendPerformance{}}, {"host", {}}}))(
      Module(original), context);
  ExpectSameOutputs(original, module.main(), 10);
}

// Backends pack weights when they compile, so a partition's constants are inside its function.
TEST(PartitionerTest, PartitionFunctionsHoldTheirConstants) {
  const Function original = testing::MakeConvBiasRelu();
  AnalyticCostEstimator estimator({{"tvm", BackendPerformance{}}, {"host", BackendPerformance{}}});
  const PartitionResult result = Partition(original, {MakeCodeGeneratorSpec("tvm"), MakeHostSpec()}, estimator,
                                           {.search = {}, .coalesce = MergeAll});
  size_t partitions = 0;
  for (const Expr& node : PostOrder(result.function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* callee = call ? As<FunctionNode>(call->callee) : nullptr;
    if (callee == nullptr) continue;
    ++partitions;
    EXPECT_EQ(callee->params.size(), 1u) << "only the image is a parameter";
    for (const Expr& argument : call->args) EXPECT_EQ(argument->kind(), ExprKind::kVar);
  }
  EXPECT_EQ(partitions, 1u);
  ExpectSameOutputs(original, result.function, 3);
}

TEST(PartitionerTest, OpNoSpecAcceptsIsAnErrorNamingIt) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  const Function function = MakeFunction({x}, CallOp("sigmoid", {CallOp("nn.relu", {x})}));
  MockCostEstimator estimator(HashedCost);
  try {
    Partition(function, {MakeOpPredicateSpec(Declare("a", {"nn.relu"})), MakeHostSpec()}, estimator);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "Collage: no partition spec accepts node 2 (call to sigmoid); specs tried: a, host");
  }
}

// Specs enumerated on several threads give the candidates, in the order, and the placement that
// one thread gives; two of the specs share the graph's pattern matcher.
TEST(PartitionerTest, CandidatesAndPlacementDoNotDependOnThreads) {
  SupportDeclaration fused = Declare("fused", {"nn.relu", "tanh", "add"});
  fused.patterns = {{"fused.relu_tanh", ParsePattern("tanh(nn.relu(*))"), {}},
                    {"fused.relu", ParsePattern("nn.relu(*)"), {}}};
  SupportDeclaration other = Declare("other", {"sigmoid", "negative", "multiply", "add"});
  other.patterns = {{"other.add_sigmoid", ParsePattern("sigmoid(add(*, *))"), {}},
                    {"other.add", ParsePattern("add(*, *)"), {}}};
  const std::vector<PartitionSpec> specs = {MakePartitionSpec(fused), MakePartitionSpec(other),
                                            MakeCodeGeneratorSpec("tvm"), MakeHostSpec()};
  auto listing = [](const OpLevelPlacement& placement) {
    std::vector<std::string> lines;
    for (const CandidatePartition& candidate : placement.candidates) lines.push_back(candidate.ToString());
    lines.push_back("chosen:");
    for (const CandidatePartition& candidate : placement.chosen) lines.push_back(candidate.ToString());
    return lines;
  };
  // The position of each candidate's spec among `specs`: it never decreases along the list,
  // whichever thread finished first.
  auto spec_positions = [&](const OpLevelPlacement& placement) {
    std::vector<size_t> positions;
    for (const CandidatePartition& candidate : placement.candidates) {
      for (size_t s = 0; s < specs.size(); ++s) {
        if (specs[s].name == candidate.spec_name()) positions.push_back(s);
      }
    }
    return positions;
  };
  size_t pattern_candidates = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const Function function = testing::MakeRandomDag(seed, 8 + static_cast<int>(seed));
    MockCostEstimator one_estimator(HashedCost);
    PartitionOptions options;
    options.threads = 1;
    const OpLevelPlacement one = PlaceOpLevel(function, specs, one_estimator, options);
    MockCostEstimator three_estimator(HashedCost);
    options.threads = 3;
    const OpLevelPlacement three = PlaceOpLevel(function, specs, three_estimator, options);
    EXPECT_EQ(listing(one), listing(three)) << "seed " << seed;
    const std::vector<size_t> positions = spec_positions(three);
    EXPECT_EQ(positions.size(), three.candidates.size()) << "seed " << seed;
    EXPECT_TRUE(std::is_sorted(positions.begin(), positions.end())) << "seed " << seed;
    for (const CandidatePartition& candidate : three.candidates) {
      const std::string& rule = candidate.rule_name();
      pattern_candidates += rule == "fused.relu_tanh" || rule == "fused.relu" || rule == "other.add_sigmoid" ||
                            rule == "other.add";
    }
  }
  // The pattern specs found matches, so their threads did share the graph's matcher.
  EXPECT_GT(pattern_candidates, 0u);
}

// A spec whose rule throws fails the placement with its error, whichever thread ran it.
TEST(PartitionerTest, ASpecsErrorOnAnotherThreadReachesTheCaller) {
  class ThrowingRule final : public PartitionRule {
   public:
    ThrowingRule() : PartitionRule("throwing") {}
    std::vector<CandidatePartition> AllCandidates(const DataflowGraph&, const PartitionSpec&) const override {
      throw Error("throwing rule: no candidates today");
    }

   protected:
    std::string Describe() const override { return "ThrowingRule"; }
  };
  const std::vector<PartitionSpec> specs = {MakeCodeGeneratorSpec("tvm"),
                                            PartitionSpec{"broken", "broken", std::make_shared<ThrowingRule>()},
                                            MakeHostSpec()};
  const Function function = testing::MakeRandomDag(3, 10);
  for (int threads : {1, 2, 3}) {
    MockCostEstimator estimator(HashedCost);
    PartitionOptions options;
    options.threads = threads;
    try {
      PlaceOpLevel(function, specs, estimator, options);
      FAIL() << "expected an error with " << threads << " threads";
    } catch (const Error& error) {
      EXPECT_STREQ(error.what(), "throwing rule: no candidates today") << threads << " threads";
    }
  }
}

TEST(PartitionerTest, TransformerWithFourSpecsAndAnalyticCosts) {
  const Function transformer = testing::MakeTransformerEncoder(
      {.layers = 24, .sequence = 16, .hidden = 64, .heads = 4, .spell_out_second_layer_norm = true});
  InferType(transformer);
  const DataflowGraph graph = DataflowGraph::Create(transformer->body);
  std::cout << "transformer nodes: " << graph.size() << "\n";
  EXPECT_GT(graph.size(), 1600u);
  const std::vector<PartitionSpec> specs = {
      MakeCodeGeneratorSpec("tvm"),
      MakeOpPredicateSpec(Declare("cublas", {"nn.dense", "nn.batch_matmul"})),
      MakeOpPredicateSpec(Declare("cudnn", {"nn.softmax", "nn.layer_norm", "nn.relu", "tanh"})),
      MakeOpPredicateSpec(Declare("tensorrt", {"nn.dense", "add", "multiply", "reshape", "transpose", "nn.softmax",
                                               "nn.batch_matmul"})),
      MakeHostSpec()};
  AnalyticCostEstimator estimator(
      {{"tvm", BackendPerformance{.peak_flops = 2e13, .memory_bandwidth = 1e12, .launch_overhead = 4e-6,
                                  .default_efficiency = 0.4, .op_efficiency = {}}},
       {"cublas", BackendPerformance{.peak_flops = 2e13, .memory_bandwidth = 1e12, .launch_overhead = 6e-6,
                                     .default_efficiency = 0.0, .op_efficiency = {{"nn.dense", 0.9}, {"nn.batch_matmul", 0.8}}}},
       {"cudnn", BackendPerformance{.peak_flops = 2e13, .memory_bandwidth = 1e12, .launch_overhead = 5e-6,
                                    .default_efficiency = 0.7, .op_efficiency = {}}},
       {"tensorrt", BackendPerformance{.peak_flops = 2e13, .memory_bandwidth = 1e12, .launch_overhead = 8e-6,
                                       .default_efficiency = 0.6, .op_efficiency = {}}},
       {"host", BackendPerformance{}}});
  const auto start = std::chrono::steady_clock::now();
  const PartitionResult result = Partition(transformer, specs, estimator);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::map<std::string, size_t> per_backend;
  for (const CandidatePartition& chosen : result.chosen) ++per_backend[chosen.backend()];
  std::cout << "transformer: " << result.stats.ToString() << " total_seconds=" << seconds
            << " estimated_cost=" << result.total.ToString() << "\n";
  for (const auto& [backend, count] : per_backend) std::cout << "  " << backend << ": " << count << " partitions\n";
  EXPECT_GT(result.stats.candidates, graph.size());
  EXPECT_TRUE(result.total.IsKnown());
  size_t ops = 0;
  for (const Placed& placed : Partitions(result.function)) ops += placed.ops;
  size_t original_ops = 0;
  for (const DataflowNode& node : graph.nodes()) {
    if (const auto* call = As<CallNode>(node.expr); call && call->op()) ++original_ops;
  }
  EXPECT_EQ(ops, original_ops);
}

}  // namespace
}  // namespace collage
