#include "support/subprocess.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "testing/temp_directory.h"

namespace collage {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(SubprocessTest, ReturnsTheExitStatus) {
  EXPECT_EQ(RunProgram({"sh", "-c", "exit 0"}), 0);
  EXPECT_EQ(RunProgram({"sh", "-c", "exit 3"}), 3);
  EXPECT_EQ(RunProgram({"sh", "-c", "kill -TERM $$"}), 128 + 15);
}

TEST(SubprocessTest, ProgramThatCannotStartIsReported) {
  EXPECT_EQ(RunProgram({"collage-no-such-program"}), kProgramNotStarted);
  EXPECT_EQ(RunProgram({}), kProgramNotStarted);
}

TEST(SubprocessTest, StreamsAreRedirectedToFiles) {
  const testing::TempDirectory directory;
  const std::string input = directory.PathOf("in.txt");
  std::ofstream(input) << "hello\n";
  const std::string output = directory.PathOf("out.txt");
  const std::string error = directory.PathOf("err.txt");
  EXPECT_EQ(RunProgram({"sh", "-c", "cat; echo oops >&2"}, {.input = input, .output = output, .error = error}), 0);
  EXPECT_EQ(ReadFile(output), "hello\n");
  EXPECT_EQ(ReadFile(error), "oops\n");

  EXPECT_EQ(RunProgram({"sh", "-c", "echo out; echo err >&2"}, {.output = output, .error_to_output = true}), 0);
  EXPECT_EQ(ReadFile(output), "out\nerr\n");
}

}  // namespace
}  // namespace collage
