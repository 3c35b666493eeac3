// The bound of --threads: a small multiple of the machine's hardware threads, stated in the
// error, for every command that takes the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>

#include "cli/cli_fixture.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

std::string HardwareThreads() { return std::to_string(std::max(1u, std::thread::hardware_concurrency())); }
std::string MostThreads() { return std::to_string(4 * std::max(1u, std::thread::hardware_concurrency())); }
std::string TooManyThreads() { return std::to_string(4 * std::max(1u, std::thread::hardware_concurrency()) + 1); }

TEST_F(CliTest, ThreadsBeyondFourPerHardwareThreadAreRefusedWithTheBound) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string expected = "--threads expects an integer in [1, " + MostThreads() +
                               "] (at most 4 per hardware thread; this machine has " + HardwareThreads() + "), got '";
  ExpectUsageError(Run({"run", model, "--threads", "4096"}), expected + "4096'");
  ExpectUsageError(Run({"run", model, "--threads", TooManyThreads()}), expected + TooManyThreads() + "'");
  ExpectUsageError(Run({"partition", model, "--threads", TooManyThreads()}), expected);
  ExpectUsageError(Run({"bench", model, "--threads", "4096"}), expected);
  ExpectUsageError(Run({"run", model, "--threads", "0"}), expected + "0'");
}

TEST_F(CliTest, ThreadsAtTheBoundAreAccepted) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"run", model, "--backends", "reference", "--threads", MostThreads()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

}  // namespace
}  // namespace collage
