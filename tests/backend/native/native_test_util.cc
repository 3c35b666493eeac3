#include "backend/native/native_test_util.h"

#include "build_paths.h"
#include "interpreter/interpreter.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage::testing {

std::string NativeTestCacheDir() { return std::string(COLLAGE_BINARY_DIR) + "/test-cache"; }

CompileOptions NativeTestOptions(int threads) {
  CompileOptions options;
  options.threads = threads;
  options.cache_dir = NativeTestCacheDir();
  return options;
}

::testing::AssertionResult ExecutableMatchesReference(Executable& executable, const Function& function,
                                                      uint64_t seed) {
  const std::vector<Value> args = RandomArguments(function, seed);
  Value actual;
  try {
    actual = InvokeExecutable(executable, function, args);
  } catch (const Error& error) {
    return ::testing::AssertionFailure() << "native failed to run: " << error.what();
  }
  const Comparison comparison = CompareValues(actual, Evaluate(function, args), std::nullopt);
  if (!comparison.ok()) {
    return ::testing::AssertionFailure() << comparison.mismatches << " elements differ from the reference; first: "
                                         << comparison.first_mismatch;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace collage::testing
