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

Value RunOnNative(const Function& function, const std::vector<Value>& args) {
  const std::unique_ptr<Executable> executable =
      BackendRegistry::Global().Find("native")->Compile(function, NativeTestOptions(2));
  return InvokeExecutable(*executable, function, args);
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
