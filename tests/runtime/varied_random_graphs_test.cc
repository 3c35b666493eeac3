// Random graphs that reach the edge cases (testing::MakeVariedRandomDag: broadcasting, scalars,
// constants, reshape/transpose/split/concatenate, several shapes, zero-extent and rank-0
// tensors, integers with negative values, booleans, rounding ties) through the executor, the
// greedy placement, the partitioner and every backend of this build, each compared with the
// reference interpreter.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "build_paths.h"
#include "backend/reference/reference_backend.h"
#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "interpreter/interpreter.h"
#include "ir/printer.h"
#include "ir/type.h"
#include "ir/visitor.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"
#include "support/shape.h"
#include "testing/random_graphs.h"
#include "testing/subset_backend.h"

namespace collage {
namespace {

constexpr uint64_t kSeeds = 80;
// Fewer through the real backends, whose code generator and libraries compile each partition.
constexpr uint64_t kBackendSeeds = 12;

int NumOps(uint64_t seed) { return 4 + static_cast<int>(seed % 14); }

// The edge cases a set of graphs reached.
struct Coverage {
  int broadcasts = 0, scalars = 0, zero_extent = 0, reshapes = 0, transposes = 0, splits = 0, concatenates = 0,
      negative_integers = 0, booleans = 0, rounding_ties = 0;
};

void Count(const Function& function, const std::vector<Value>& args, Coverage& coverage) {
  for (const Expr& node : PostOrder(function->body)) {
    const TensorTypeNode* type = AsTensorType(node->checked_type());
    if (type != nullptr && type->shape.empty()) ++coverage.scalars;
    if (type != nullptr && NumElements(type->shape) == 0) ++coverage.zero_extent;
    if (type != nullptr && type->dtype == DType::kBool) ++coverage.booleans;
    const auto* call = As<CallNode>(node);
    if (call == nullptr || call->op() == nullptr) continue;
    const std::string& op = call->op()->name;
    coverage.reshapes += op == "reshape";
    coverage.transposes += op == "transpose";
    coverage.splits += op == "split";
    coverage.concatenates += op == "concatenate";
    if (call->args.size() == 2 && type != nullptr) {
      for (const Expr& arg : call->args) {
        const TensorTypeNode* operand = AsTensorType(arg->checked_type());
        if (operand != nullptr && operand->shape != type->shape) {
          ++coverage.broadcasts;
          break;
        }
      }
    }
  }
  // Values: evaluated sub-expressions are not exposed, so look at the outputs.
  for (const Tensor& output : Evaluate(function, args).Flatten()) {
    for (int64_t i = 0; i < output.NumElements(); ++i) {
      if (output.dtype() == DType::kI32 && output.GetAsInt64(i) < 0) ++coverage.negative_integers;
    }
  }
  for (const Expr& node : PostOrder(function->body)) {
    const auto* call = As<CallNode>(node);
    if (call == nullptr || call->op() == nullptr || call->op()->name != "round") continue;
    const Value input = Evaluate(MakeFunction(function->params, call->args[0]), args);
    const Tensor& tensor = input.tensor();
    for (int64_t i = 0; i < tensor.NumElements(); ++i) {
      const double value = tensor.GetAsDouble(i);
      if (value - std::floor(value) == 0.5) ++coverage.rounding_ties;
    }
  }
}

TEST(VariedRandomGraphsTest, ReachEveryEdgeCase) {
  Coverage coverage;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Function function = testing::MakeVariedRandomDag(seed, NumOps(seed));
    Count(function, RandomArguments(function, seed), coverage);
  }
  EXPECT_GT(coverage.broadcasts, 0);
  EXPECT_GT(coverage.scalars, 0);
  EXPECT_GT(coverage.zero_extent, 0);
  EXPECT_GT(coverage.reshapes, 0);
  EXPECT_GT(coverage.transposes, 0);
  EXPECT_GT(coverage.splits, 0);
  EXPECT_GT(coverage.concatenates, 0);
  EXPECT_GT(coverage.negative_integers, 0);
  EXPECT_GT(coverage.booleans, 0);
  EXPECT_GT(coverage.rounding_ties, 0);
}

// Runs `module` (placed) through the executor and compares with the interpreter on `function`.
::testing::AssertionResult ExecutorMatchesInterpreter(const Module& placed, const Function& function,
                                                      const BackendRegistry& registry, uint64_t seed) {
  try {
    ExecutorOptions options;
    options.compile.cache_dir = std::string(COLLAGE_BINARY_DIR) + "/test-cache";
    Executor executor(placed, registry, options);
    const std::vector<Value> args = RandomArguments(function, seed);
    const Comparison comparison = CompareValues(executor.Run(args), Evaluate(function, args));
    if (!comparison.ok()) return ::testing::AssertionFailure() << comparison.first_mismatch;
  } catch (const Error& error) {
    return ::testing::AssertionFailure() << error.what();
  }
  return ::testing::AssertionSuccess();
}

TEST(VariedRandomGraphsTest, GreedyPlacementsOnTestBackendsMatchTheInterpreter) {
  BackendRegistry registry;
  registry.Register(std::make_shared<ReferenceBackend>());
  registry.Register(std::make_shared<testing::SubsetBackend>(
      "shapes", std::set<std::string>{"reshape", "transpose", "split", "concatenate", "add", "multiply"}));
  registry.Register(std::make_shared<testing::SubsetBackend>(
      "integers", std::set<std::string>{"cast", "abs", "negative", "maximum", "minimum", "where", "less", "round"}));
  const std::vector<std::vector<std::string>> menus = {{"reference"}, {"shapes"}, {"integers", "shapes"}};
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Function function = testing::MakeVariedRandomDag(seed, NumOps(seed));
    const std::vector<std::string>& menu = menus[seed % menus.size()];
    const Module placed = PlaceGreedy(Module(function), menu, registry);
    EXPECT_TRUE(ExecutorMatchesInterpreter(placed, function, registry, seed))
        << "seed " << seed << "\n" << PrintFunction(function);
  }
}

TEST(VariedRandomGraphsTest, PartitionedGraphsComputeTheSameOutputs) {
  const std::vector<PartitionSpec> specs = {
      MakeOpPredicateSpec(SupportDeclaration{"a",
                                             [](const CallNode& call) {
                                               const std::string& op = call.op()->name;
                                               return op == "add" || op == "reshape" || op == "concatenate";
                                             },
                                             {},
                                             false}),
      MakeCodeGeneratorSpec("generated"), MakeHostSpec()};
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Function function = testing::MakeVariedRandomDag(seed, NumOps(seed));
    MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
      std::mt19937_64 random(std::hash<std::string>{}(candidate.sub_graph().inside().ToString() + candidate.spec_name()));
      return Cost::Seconds(std::uniform_real_distribution<double>(1.0, 10.0)(random));
    });
    const PartitionResult result = Partition(function, specs, estimator);
    const std::vector<Value> args = RandomArguments(function, seed);
    const std::vector<Tensor> expected = Evaluate(function, args).Flatten();
    const std::vector<Tensor> actual = Evaluate(result.function, args).Flatten();
    ASSERT_EQ(expected.size(), actual.size()) << "seed " << seed;
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_TRUE(expected[i].BitwiseEqual(actual[i])) << "seed " << seed << " output " << i;
    }
  }
}

class VariedRandomGraphsBackendTest : public ::testing::TestWithParam<std::string> {};

// Each backend of this build takes what it declares and the universal fallback the rest; the
// results must equal the interpreter's by the shared rule.
TEST_P(VariedRandomGraphsBackendTest, GreedyPlacementMatchesTheInterpreter) {
  const BackendRegistry& registry = BackendRegistry::Global();
  if (!registry.Find(GetParam())) GTEST_SKIP() << GetParam() << " is not in this build";
  for (uint64_t seed = 0; seed < kBackendSeeds; ++seed) {
    const Function function = testing::MakeVariedRandomDag(seed, NumOps(seed));
    Module placed;
    try {
      placed = PlaceGreedy(Module(function), std::vector<std::string>{GetParam()}, registry);
    } catch (const Error& error) {
      ADD_FAILURE() << "seed " << seed << ": placement failed: " << error.what();
      continue;
    }
    EXPECT_TRUE(ExecutorMatchesInterpreter(placed, function, registry, seed))
        << "seed " << seed << "\n" << PrintFunction(function);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, VariedRandomGraphsBackendTest,
                         ::testing::Values("native", "onednn", "openblas", "xnnpack"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace collage
