#include "runtime/executable_cache.h"

#include <gtest/gtest.h>

#include "interpreter/interpreter.h"
#include "ir/type.h"
#include "ir/op_registry.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"
#include "testing/random_graphs.h"
#include "testing/subset_backend.h"

namespace collage {
namespace {

// Stands in for a compiled partition; the cache never runs what it holds.
class IdleExecutable final : public Executable {
 public:
  void Run(std::span<const Tensor>, std::span<Tensor>) override {}
};

// fn(%x) { add(%x, weights) } with `weights` of 256 floats drawn from `seed`, named `symbol`.
Function AddWeights(uint64_t seed, const std::string& symbol) {
  const Var x = MakeVar("x", TensorType(DType::kF32, {256}));
  const Expr body = CallOp("add", {x, MakeConstant(Tensor::Random(DType::kF32, {256}, seed))});
  return MakeFunction({x}, body, {{attr::kGlobalSymbol, symbol}});
}

constexpr size_t kWeightBytes = 256 * sizeof(float);
constexpr size_t kEntryBytes = ExecutableCache::kEntryAllowanceBytes + kWeightBytes;

TEST(ExecutableCacheTest, FindsAnEqualFunctionWhateverItsGlobalSymbol) {
  ExecutableCache cache(size_t{1} << 30);
  CompileOptions options;
  options.threads = 2;
  const auto executable = std::make_shared<IdleExecutable>();
  EXPECT_EQ(cache.Find("library", AddWeights(1, "library_0"), options), nullptr);
  cache.Insert("library", AddWeights(1, "library_0"), options, executable);
  EXPECT_EQ(cache.Find("library", AddWeights(1, "library_7"), options), executable);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 1u);
}

TEST(ExecutableCacheTest, MissesOnOtherConstantsBackendOrOptions) {
  ExecutableCache cache(size_t{1} << 30);
  CompileOptions options;
  options.threads = 2;
  cache.Insert("library", AddWeights(1, "library_0"), options, std::make_shared<IdleExecutable>());
  EXPECT_EQ(cache.Find("library", AddWeights(2, "library_0"), options), nullptr);  // same shapes, other values
  EXPECT_EQ(cache.Find("runtime", AddWeights(1, "library_0"), options), nullptr);
  CompileOptions more_threads = options;
  more_threads.threads = 4;
  EXPECT_EQ(cache.Find("library", AddWeights(1, "library_0"), more_threads), nullptr);
  CompileOptions other_folder = options;
  other_folder.cache_dir = "/elsewhere";
  EXPECT_EQ(cache.Find("library", AddWeights(1, "library_0"), other_folder), nullptr);
  EXPECT_EQ(cache.misses(), 4u);
}

TEST(ExecutableCacheTest, InsertingAnEqualFunctionKeepsTheFirstExecutable) {
  ExecutableCache cache(size_t{1} << 30);
  const auto first = std::make_shared<IdleExecutable>();
  cache.Insert("library", AddWeights(1, "library_0"), {}, first);
  cache.Insert("library", AddWeights(1, "library_3"), {}, std::make_shared<IdleExecutable>());
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.held_bytes(), kEntryBytes);
  EXPECT_EQ(cache.Find("library", AddWeights(1, "library_5"), {}), first);
}

TEST(ExecutableCacheTest, EvictsTheLeastRecentlyUsedBeyondTheCapacity) {
  ExecutableCache cache(2 * kEntryBytes);
  cache.Insert("library", AddWeights(1, "a"), {}, std::make_shared<IdleExecutable>());
  cache.Insert("library", AddWeights(2, "b"), {}, std::make_shared<IdleExecutable>());
  ASSERT_NE(cache.Find("library", AddWeights(1, "a"), {}), nullptr);  // now 2 is the least recently used
  cache.Insert("library", AddWeights(3, "c"), {}, std::make_shared<IdleExecutable>());
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.held_bytes(), 2 * kEntryBytes);
  EXPECT_NE(cache.Find("library", AddWeights(1, "a"), {}), nullptr);
  EXPECT_EQ(cache.Find("library", AddWeights(2, "b"), {}), nullptr);
  EXPECT_NE(cache.Find("library", AddWeights(3, "c"), {}), nullptr);
}

TEST(ExecutableCacheTest, KeepsTheEntryJustInsertedEvenBeyondTheCapacity) {
  ExecutableCache cache(kEntryBytes / 2);
  cache.Insert("library", AddWeights(1, "a"), {}, std::make_shared<IdleExecutable>());
  cache.Insert("library", AddWeights(2, "b"), {}, std::make_shared<IdleExecutable>());
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_NE(cache.Find("library", AddWeights(2, "b"), {}), nullptr);
}

TEST(ExecutableCacheTest, ExecutorsSharingACacheCompileEachPartitionOnceAndStayCorrect) {
  const auto unary =
      std::make_shared<testing::SubsetBackend>("unary", std::set<std::string>{"nn.relu", "tanh", "sigmoid"});
  const auto fallback = std::make_shared<testing::SubsetBackend>(
      "fallback", std::set<std::string>{}, std::vector<BackendPattern>{}, /*runs_every_op=*/true,
      BackendKind::kCodeGenerator);
  BackendRegistry registry;
  registry.Register(unary);
  registry.Register(fallback);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const Function function = testing::MakeRandomDag(seed, 4 + static_cast<int>(seed % 10));
    const Module placed = PlaceGreedy(Module(function), std::vector<std::string>{"unary"}, registry);
    ExecutableCache cache(size_t{1} << 30);
    ExecutorOptions options;
    options.cache = &cache;
    const size_t compiled_before = unary->compiled() + fallback->compiled();
    Executor first(placed, registry, options);
    const size_t compiled_by_first = unary->compiled() + fallback->compiled() - compiled_before;
    Executor second(placed, registry, options);
    EXPECT_EQ(unary->compiled() + fallback->compiled() - compiled_before, compiled_by_first) << "seed " << seed;
    EXPECT_GE(cache.hits(), second.num_steps()) << "seed " << seed;
    const std::vector<Value> args = RandomArguments(function, seed);
    const Value expected = Evaluate(function, args);
    for (Executor* executor : {&first, &second, &first}) {
      const std::vector<Tensor> actual = executor->Run(args).Flatten();
      const std::vector<Tensor> wanted = expected.Flatten();
      ASSERT_EQ(actual.size(), wanted.size());
      for (size_t i = 0; i < actual.size(); ++i) EXPECT_TRUE(actual[i].BitwiseEqual(wanted[i])) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace collage
