// The fixture of the end-to-end CLI tests: runs the built collage binary (its path is in
// COLLAGE_CLI, which ctest sets) in a fresh temporary directory and checks exit codes,
// output text and files.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/temp_directory.h"

namespace collage::testing {

// The collage binary under test.
std::string CliPath();
// The same tool with the deliberately wrong test backends added (testing/wrong_backends.h).
std::string WrongBackendsCliPath();
// `text` quoted for the shell.
std::string Quote(const std::string& text);

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class CliTest : public ::testing::Test {
 protected:
  // Two parameters, a tuple result.
  static constexpr const char* kTupleModel = R"(def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(3), f32]) {
  %0 = add(%x, %y)
  %1 = multiply(%x, %x)
  (%0, nn.relu(%1))
}
)";

  CliResult Run(const std::vector<std::string>& arguments);
  // Runs `tool` (a build of the collage tool) with `arguments`.
  CliResult RunTool(const std::string& tool, const std::vector<std::string>& arguments);
  // Writes `text` to `name` in the test's directory; returns its path.
  std::string WriteModel(const std::string& name, const std::string& text);
  // Exit status 1 with one line on stderr that starts "collage: error: " and contains `expected`.
  void ExpectError(const CliResult& result, const std::string& expected);
  // Exit status 2 with one line on stderr naming the problem and pointing to --help.
  void ExpectUsageError(const CliResult& result, const std::string& expected);

  static std::string ReadFile(const std::string& path);
  static void WriteFile(const std::string& path, const std::string& text);
  static int CountLines(const std::string& text);

  TempDirectory directory_;
};

}  // namespace collage::testing
