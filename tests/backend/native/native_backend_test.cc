// The native backend's contract: registration and support declaration, the on-disk kernel
// cache (a second compile runs no compiler, constants are data and not code), compiler
// failures as Errors, thread counts, and the reference fallback for dtypes without a generator.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <limits>

#include "backend/backend_source_hash.h"
#include "backend/backend_test_util.h"
#include "backend/native/compiler_driver.h"
#include "backend/native/kernel_cache.h"
#include "backend/native/native_backend.h"
#include "backend/native/native_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "runtime/invoke_executable.h"
#include "testing/scoped_environment.h"
#include "testing/temp_directory.h"
#include "tuning/measured_cost_estimator.h"

namespace collage {
namespace {

Function AddConstant(uint64_t seed) {
  const Var x = MakeVar("x", TensorType(DType::kF32, {3, 64}));
  const Expr body = CallOp("nn.relu", {CallOp("add", {x, MakeConstant(Tensor::Random(DType::kF32, {64}, seed))})});
  Function function = MakeFunction({x}, body);
  InferType(function);
  return function;
}

CompileOptions OptionsIn(const testing::TempDirectory& dir) {
  CompileOptions options;
  options.threads = 2;
  options.cache_dir = dir.PathOf("cache");
  return options;
}

TEST(NativeBackendTest, IsRegisteredAsAFusingCodeGeneratorForEveryOp) {
  const BackendPtr native = BackendRegistry::Global().Get("native");
  EXPECT_EQ(native->kind(), BackendKind::kCodeGenerator);
  const SupportDeclaration support = native->Support();
  EXPECT_TRUE(support.fuses_like_fuse_ops);
  const Function function = AddConstant(1);
  EXPECT_TRUE(support.Supports(*As<CallNode>(function->body)));
  EXPECT_NE(native->version().find(native::kGeneratorVersion), std::string::npos);
  // Header and generator edits change costs through the source hash of src/backend/native/.
  EXPECT_NE(CostVersion(*native).find(BackendSourceHash("native").substr(0, 16)), std::string::npos);
}

TEST(NativeBackendTest, SecondCompileHitsTheCacheAndConstantsAreData) {
  const testing::TempDirectory dir;
  const uint64_t before = native::CompilerInvocations();
  std::unique_ptr<Executable> first = NativeBackend().Compile(AddConstant(1), OptionsIn(dir));
  const uint64_t after_first = native::CompilerInvocations();
  EXPECT_GT(after_first, before);
  // Same structure with other constant values: same kernel, no compiler run.
  const Function other = AddConstant(2);
  std::unique_ptr<Executable> second = NativeBackend().Compile(other, OptionsIn(dir));
  EXPECT_EQ(native::CompilerInvocations(), after_first);
  EXPECT_TRUE(testing::ExecutableMatchesReference(*first, AddConstant(1)));
  EXPECT_TRUE(testing::ExecutableMatchesReference(*second, other));
}

TEST(NativeBackendTest, CompilerFailureIsAnErrorWithTheCompilersMessage) {
  const testing::TempDirectory dir;
  const NativeBackend broken(native::CompilerConfig{"c++", {"-fno-such-option-for-collage"}});
  try {
    broken.Compile(AddConstant(1), OptionsIn(dir));
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("native: compiler failed:"), std::string::npos) << message;
    EXPECT_NE(message.find("no-such-option-for-collage"), std::string::npos) << message;
  }
  const std::vector<CompileResult> results = broken.CompileAll({AddConstant(1), AddConstant(3)}, OptionsIn(dir));
  ASSERT_EQ(results.size(), 2u);
  for (const CompileResult& result : results) {
    EXPECT_EQ(result.executable, nullptr);
    EXPECT_NE(result.error.find("compiler failed"), std::string::npos) << result.error;
  }
}

TEST(NativeBackendTest, MissingCompilerIsAnError) {
  const testing::TempDirectory dir;
  const NativeBackend missing(native::CompilerConfig{"/nonexistent/collage-c++", {}});
  try {
    missing.Compile(AddConstant(1), OptionsIn(dir));
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("could not run the compiler"), std::string::npos) << error.what();
  }
}

using testing::ScopedEnvironment;

TEST(NativeBackendTest, WithoutHomeKernelsGoToAPrivateFolderAndAnOpenOneIsRefused) {
  const testing::TempDirectory dir;
  const std::string root = std::filesystem::path(dir.PathOf("x")).parent_path().string();
  const ScopedEnvironment cache("COLLAGE_CACHE_DIR", nullptr);
  const ScopedEnvironment home("HOME", nullptr);
  const ScopedEnvironment temporary("TMPDIR", root.c_str());
  const std::string folder = dir.PathOf("collage-cache-" + std::to_string(geteuid()));
  EXPECT_EQ(native::DefaultNativeCacheDir(), folder + "/native");
  struct stat status;
  ASSERT_EQ(stat(folder.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 07777, 0700u);
  ASSERT_EQ(chmod(folder.c_str(), 0777), 0);  // as another user could have made it first
  EXPECT_THROW(native::DefaultNativeCacheDir(), Error);
}

TEST(NativeBackendTest, ResultsDoNotDependOnTheThreadCount) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%x: Tensor[(1, 8, 20, 20), f32], %w: Tensor[(24, 8, 3, 3), f32], %d: Tensor[(10, 24), f32]) {
  %0 = nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]))
  %1 = nn.global_avg_pool2d(%0)
  nn.dense(reshape(%1, newshape=[1, 24]), %d)
}
)");
  // Each thread computes whole output elements in the same order, so the results are the
  // same bit for bit.
  const std::vector<Value> args = RandomArguments(function, 7);
  Tensor single_threaded;
  for (int threads : {1, 2, 3}) {
    std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions(threads));
    EXPECT_TRUE(testing::ExecutableMatchesReference(*executable, function, 7)) << threads << " threads";
    const Tensor result = InvokeExecutable(*executable, function, args).tensor();
    if (threads == 1) single_threaded = result;
    EXPECT_TRUE(result.BitwiseEqual(single_threaded)) << threads << " threads";
  }
}

// The vectorized max/min select exactly what the reference does: the first NaN argument,
// else the larger (smaller) value, `a` on ties, so signed zeros come out the same.
TEST(NativeBackendTest, MaximumAndMinimumMatchTheReferenceBitForBitOnNaNsAndZeros) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%a: Tensor[(37), f32], %b: Tensor[(37), f32]) {
  (maximum(%a, %b), minimum(%a, %b))
}
)");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float other_nan = -std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> specials_a = {nan, 1.0f, nan, 0.0f, -0.0f, 2.0f, 3.0f, -inf, inf, -0.0f, 0.0f, other_nan};
  const std::vector<float> specials_b = {1.0f, nan, other_nan, -0.0f, 0.0f, 2.0f, -1.0f, inf, nan, -0.0f, 0.0f, -5.0f};
  std::vector<float> a;
  std::vector<float> b;
  for (size_t i = 0; i < 37; ++i) {  // every vector lane position and the scalar tail see specials
    a.push_back(specials_a[i % specials_a.size()]);
    b.push_back(specials_b[(i + i / specials_b.size()) % specials_b.size()]);
  }
  const std::vector<Value> args = {Value(Tensor::FromVector(a, {37})), Value(Tensor::FromVector(b, {37}))};
  std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions(1));
  const std::vector<Tensor> actual = InvokeExecutable(*executable, function, args).Flatten();
  const std::vector<Tensor> expected = Evaluate(function, args).Flatten();
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t r = 0; r < actual.size(); ++r) {
    const auto* got = static_cast<const uint32_t*>(actual[r].raw_data());
    const auto* want = static_cast<const uint32_t*>(expected[r].raw_data());
    for (size_t i = 0; i < 37; ++i) {
      EXPECT_EQ(got[i], want[i]) << (r == 0 ? "maximum(" : "minimum(") << a[i] << ", " << b[i] << ") at " << i;
    }
  }
}

TEST(NativeBackendTest, GroupsWithoutAGeneratorRunThroughTheReferenceKernels) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%x: Tensor[(4, 5), f16], %y: Tensor[(4, 5), f32]) {
  (add(%x, %x), nn.relu(%y))
}
)");
  std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions());
  EXPECT_TRUE(testing::ExecutableMatchesReference(*executable, function, 3));
}

TEST(NativeBackendTest, ATupleParameterIsAnError) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%t: (Tensor[(2), f32], Tensor[(2), f32])) {
  add(%t.0, %t.1)
}
)");
  EXPECT_THROW(NativeBackend().Compile(function, testing::NativeTestOptions()), Error);
}

}  // namespace
}  // namespace collage
