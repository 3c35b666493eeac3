#include "cli/cli_fixture.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "build_paths.h"

namespace collage::testing {

std::string CliPath() {
  const char* path = std::getenv("COLLAGE_CLI");
  return path != nullptr ? path : std::string(COLLAGE_BINARY_DIR) + "/bin/collage";
}

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string WrongBackendsCliPath() { return std::string(COLLAGE_BINARY_DIR) + "/bin/collage-with-wrong-backends"; }

CliResult CliTest::Run(const std::vector<std::string>& arguments) { return RunTool(CliPath(), arguments); }

CliResult CliTest::RunTool(const std::string& tool, const std::vector<std::string>& arguments) {
  std::string command = Quote(tool);
  for (const std::string& argument : arguments) command += " " + Quote(argument);
  const std::string out_path = directory_.PathOf("stdout.txt");
  const std::string err_path = directory_.PathOf("stderr.txt");
  command += " >" + Quote(out_path) + " 2>" + Quote(err_path) + " </dev/null";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(out_path);
  result.err = ReadFile(err_path);
  return result;
}

std::string CliTest::WriteModel(const std::string& name, const std::string& text) {
  const std::string path = directory_.PathOf(name);
  WriteFile(path, text);
  return path;
}

void CliTest::ExpectError(const CliResult& result, const std::string& expected) {
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.err.rfind("collage: error: ", 0), 0u) << result.err;
  EXPECT_EQ(CountLines(result.err), 1) << result.err;
  EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
}

void CliTest::ExpectUsageError(const CliResult& result, const std::string& expected) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(CountLines(result.err), 1) << result.err;
  EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--help"), std::string::npos) << result.err;
}

std::string CliTest::ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void CliTest::WriteFile(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

int CliTest::CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

}  // namespace collage::testing
