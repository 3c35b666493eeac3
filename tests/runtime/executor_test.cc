#include "runtime/executor.h"

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "pass/byoc/partition_greedy.h"
#include "runtime/execution_plan.h"
#include "runtime/greedy_placement.h"
#include "testing/random_graphs.h"
#include "testing/subset_backend.h"

namespace collage {
namespace {

using testing::SubsetBackend;

// "elementwise" takes the unary ops, "binary" the binary ones; "fallback" runs every op.
struct TestRegistry {
  std::shared_ptr<SubsetBackend> unary =
      std::make_shared<SubsetBackend>("unary", std::set<std::string>{"nn.relu", "tanh", "sigmoid"});
  std::shared_ptr<SubsetBackend> binary =
      std::make_shared<SubsetBackend>("binary", std::set<std::string>{"add", "multiply"});
  std::shared_ptr<SubsetBackend> fallback = std::make_shared<SubsetBackend>(
      "fallback", std::set<std::string>{}, std::vector<BackendPattern>{}, /*runs_every_op=*/true,
      BackendKind::kCodeGenerator);
  BackendRegistry registry;

  TestRegistry() {
    registry.Register(unary);
    registry.Register(binary);
    registry.Register(fallback);
  }
};

// Every op call of @main's body is inside a partition.
bool EveryOpIsPartitioned(const Module& module) {
  for (const Expr& node : PostOrder(module.main()->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    if (call != nullptr && call->op() != nullptr) return false;
  }
  return true;
}

TEST(ExecutorTest, RandomGraphsMatchTheInterpreterOnEveryBackendMenu) {
  TestRegistry test;
  const std::vector<std::vector<std::string>> menus = {{}, {"unary"}, {"binary"}, {"unary", "binary"},
                                                       {"binary", "unary", "fallback"}};
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const Function function = testing::MakeRandomDag(seed, 3 + static_cast<int>(seed % 12));
    const std::vector<std::string>& menu = menus[seed % menus.size()];
    const Module placed = PlaceGreedy(Module(function), menu, test.registry);
    ASSERT_TRUE(EveryOpIsPartitioned(placed)) << "seed " << seed;
    Executor executor(placed, test.registry, {});
    for (uint64_t run = 0; run < 2; ++run) {  // compiled once, run with fresh inputs
      const std::vector<Value> args = RandomArguments(function, seed * 10 + run);
      const std::vector<Tensor> actual = executor.Run(args).Flatten();
      const std::vector<Tensor> expected = Evaluate(function, args).Flatten();
      ASSERT_EQ(actual.size(), expected.size());
      for (size_t i = 0; i < actual.size(); ++i) {
        EXPECT_TRUE(actual[i].BitwiseEqual(expected[i])) << "seed " << seed << " output " << i;
      }
    }
  }
  EXPECT_GT(test.unary->compiled(), 0u);
  EXPECT_GT(test.binary->compiled(), 0u);
  EXPECT_GT(test.fallback->compiled(), 0u);
}

TEST(ExecutorTest, RandomGraphPlansNeverAliasLiveActivations) {
  TestRegistry test;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const Module placed = PlaceGreedy(Module(testing::MakeRandomDag(seed, 2 + static_cast<int>(seed % 20))),
                                      std::vector<std::string>{"unary"}, test.registry);
    const ExecutionPlan plan = BuildExecutionPlan(placed.main());
    std::vector<size_t> activation_of_slot;
    const std::vector<BufferLifetime> lifetimes = ActivationLifetimes(plan, &activation_of_slot);
    ASSERT_EQ(FindLiveOverlap(lifetimes, PlanMemory(lifetimes)), "") << "seed " << seed;
  }
}

// A partition returning a tuple, a projection of it and a host op between partitions.
constexpr const char* kTupleAndHostModel = R"(
def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(2, 3), f32]) {
  %0 = add(%x, %y) : Tensor[(2, 3), f32]
  %1 = multiply(%0, %x) : Tensor[(2, 3), f32]
  %2 = tanh(%1) : Tensor[(2, 3), f32]
  %3 = subtract(%2, %0) : Tensor[(2, 3), f32]
  (%3, %1)
}
)";

TEST(ExecutorTest, RunsHostCallsOnTheUniversalFallback) {
  TestRegistry test;
  // Greedy BYOC without a fallback leaves tanh and subtract on the host.
  const Module partitioned =
      PartitionGreedy({test.binary->Support()})(Module(testing::ParseMainFunction(kTupleAndHostModel)));
  ExecutorOptions options;
  options.compile.threads = 3;
  options.profile = true;
  Executor executor(partitioned, test.registry, options);
  EXPECT_EQ(executor.num_steps(), 3u);  // binary_0 (a tuple of two outputs), host tanh, host subtract
  const std::vector<Value> args = RandomArguments(partitioned.main(), 5);
  const Comparison comparison = CompareValues(executor.Run(args), Evaluate(partitioned.main(), args));
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  EXPECT_EQ(test.fallback->compiled(), 2u);
  EXPECT_EQ(test.binary->max_threads(), 3);
  EXPECT_EQ(test.fallback->max_threads(), 3);

  const std::vector<ProfileRow> rows = executor.profiler()->Rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].call.global_symbol, "binary_0");
  EXPECT_EQ(rows[0].call.backend, "binary");
  EXPECT_EQ(rows[0].call.ops, 2u);
  EXPECT_EQ(rows[1].call.global_symbol, "host_0");
  EXPECT_EQ(rows[1].call.backend, "fallback");
  EXPECT_EQ(rows[2].runs, 1u);
}

// A channels-last partition between plain ones: conversions where the layouts' bytes differ
// (its input, its 4-D output read by a plain partition, the model's 4-D result), none for the
// [2, 4, 1, 1] value whose bytes agree in both layouts.
constexpr const char* kMixedLayoutModel = R"(
def @main(%x: Tensor[(2, 4, 3, 5), f32]) {
  %0 = fn (%p: Tensor[(2, 4, 3, 5), f32]) attrs(Compiler="fallback", Primitive=1, global_symbol="fallback_0") {
    nn.relu(%p)
  }
  %1 = %0(%x)
  %2 = fn (%q: Tensor[(2, 4, 3, 5), f32])
      attrs(BoundaryLayout="nhwc", Compiler="fallback", Primitive=1, global_symbol="fallback_1") {
    %10 = tanh(%q)
    %11 = nn.global_avg_pool2d(%10)
    (%10, %11)
  }
  %3 = %2(%1)
  %4 = fn (%r: Tensor[(2, 4, 3, 5), f32], %s: Tensor[(2, 4, 1, 1), f32])
      attrs(Compiler="fallback", Primitive=1, global_symbol="fallback_2") {
    multiply(%r, %s)
  }
  %5 = %4(%3.0, %3.1)
  (%5, %3.0)
}
)";

TEST(ExecutorTest, ConvertsLayoutsOnlyWhereTheBytesDiffer) {
  TestRegistry test;
  ExecutorOptions options;
  options.profile = true;
  const Module model(testing::ParseMainFunction(kMixedLayoutModel));
  Executor executor(model, test.registry, options);
  const std::vector<Value> args = RandomArguments(model.main(), 9);
  const Comparison comparison = CompareValues(executor.Run(args), Evaluate(model.main(), args));
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  std::vector<std::string> steps;
  for (const ProfileRow& row : executor.profiler()->Rows()) steps.push_back(row.call.global_symbol + "/" + row.call.backend);
  // Into fallback_1's layout; back to plain once for fallback_2 and the result (one converted slot).
  EXPECT_EQ(steps, (std::vector<std::string>{"fallback_0/fallback", "convert_0/convert", "fallback_1/fallback",
                                             "convert_1/convert", "fallback_2/fallback"}));
}

TEST(ExecutorTest, ActivationArenaIsSmallerThanTheSumOnAChain) {
  TestRegistry test;
  const Function chain = testing::ParseMainFunction(R"(
def @main(%x: Tensor[(64), f32]) {
  %0 = nn.relu(%x) : Tensor[(64), f32]
  %1 = tanh(%0) : Tensor[(64), f32]
  %2 = sigmoid(%1) : Tensor[(64), f32]
  %3 = nn.relu(%2) : Tensor[(64), f32]
  tanh(%3)
}
)");
  // One host call per op: five 256-byte activations, at most two live at a time.
  Executor executor(Module(chain), test.registry, {});
  EXPECT_EQ(executor.memory_plan().total_bytes, 5u * 256);
  EXPECT_EQ(executor.memory_plan().arena_bytes, 2u * 256);
  const std::vector<Value> args = RandomArguments(chain, 1);
  EXPECT_TRUE(executor.Run(args).tensor().BitwiseEqual(Evaluate(chain, args).tensor()));
}

TEST(ExecutorTest, CompileErrorNamesThePartitionAndTheBackend) {
  TestRegistry test;
  // Placed for a "binary" that runs add and multiply, compiled by one that runs only add.
  const Module placed = PlaceGreedy(Module(testing::ParseMainFunction(kTupleAndHostModel)),
                                    std::vector<std::string>{"binary"}, test.registry);
  BackendRegistry narrow;
  narrow.Register(std::make_shared<SubsetBackend>("binary", std::set<std::string>{"add"}));
  narrow.Register(test.fallback);
  try {
    Executor executor(placed, narrow, {});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "partition binary_0: backend 'binary' cannot compile it: binary does not run multiply");
  }
}

TEST(ExecutorTest, UnknownBackendOfAPartitionIsAnError) {
  TestRegistry test;
  const Module placed = PlaceGreedy(Module(testing::ParseMainFunction(kTupleAndHostModel)),
                                    std::vector<std::string>{"binary"}, test.registry);
  BackendRegistry other;
  other.Register(test.fallback);
  try {
    Executor executor(placed, other, {});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "partition binary_0: unknown backend 'binary' (available: fallback)");
  }
}

TEST(ExecutorTest, MistypedArgumentIsAnErrorNamingTheParameter) {
  TestRegistry test;
  Executor executor(Module(testing::ParseMainFunction(kTupleAndHostModel)), test.registry, {});
  const Tensor wrong = Tensor::Zeros(DType::kF32, {3, 2});
  try {
    executor.Run({wrong, wrong});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "argument for parameter %x: expected Tensor[(2, 3), f32]");
  }
  EXPECT_THROW(executor.Run({wrong}), Error);
}

}  // namespace
}  // namespace collage
