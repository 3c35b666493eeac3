#include "backend/backend_test_util.h"

#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "ir/printer.h"
#include "runtime/invoke_executable.h"

namespace collage::testing {

Function ParseMainFunction(const std::string& text) { return ParseModule(text).main(); }

::testing::AssertionResult MatchesReference(const Backend& backend, const Function& function, uint64_t seed,
                                            int threads, const std::optional<Tolerance>& tolerance) {
  CompileOptions options;
  options.threads = threads;
  std::unique_ptr<Executable> executable;
  try {
    executable = backend.Compile(function, options);
  } catch (const Error& error) {
    return ::testing::AssertionFailure() << backend.name() << " could not compile: " << error.what();
  }
  const std::vector<Value> args = RandomArguments(function, seed);
  Value actual;
  try {
    actual = InvokeExecutable(*executable, function, args);
  } catch (const Error& error) {
    return ::testing::AssertionFailure() << backend.name() << " failed to run: " << error.what();
  }
  const Comparison comparison = CompareValues(actual, Evaluate(function, args), tolerance);
  if (!comparison.ok()) {
    return ::testing::AssertionFailure() << backend.name() << ": " << comparison.mismatches
                                         << " elements differ from the reference; first: " << comparison.first_mismatch;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace collage::testing
