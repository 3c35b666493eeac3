// Types at the limits: tensor types whose size overflows 64 bits and tuple types nested
// tens of thousands deep give one-line errors, never a crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_fixture.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

TEST_F(CliTest, ATensorTypeOverflowing64BitsIsAnError) {
  const std::string wrapping_negative =
      WriteModel("negative.cir", "def @main(%x: Tensor[(2147483648, 2147483648, 2), f32]) {\n  nn.relu(%x)\n}\n");
  ExpectError(Run({"run", wrapping_negative}), ":1:15: shape (2147483648, 2147483648, 2) has more elements");
  const std::string wrapping_to_zero =
      WriteModel("zero.cir", "def @main(%x: Tensor[(4294967296, 4294967296), f32]) {\n  nn.relu(%x)\n}\n");
  ExpectError(Run({"run", wrapping_to_zero}), "has more elements than a 64-bit count holds");
  ExpectError(Run({"partition", wrapping_to_zero}), "has more elements than a 64-bit count holds");
}

// 2^60 elements fit a 64-bit count but no machine's memory: the run is refused before any
// allocation, naming the file, the value and the limit (it was "out of memory allocating
// 4611686018427387904 bytes"); placing the model allocates nothing and still works.
TEST_F(CliTest, ATensorLargerThanTheMemoryIsRefusedBeforeTheRun) {
  const std::string huge_input = WriteModel(
      "huge_input.cir", "def @main(%x: Tensor[(1073741824, 1073741824), f32]) {\n  nn.relu(%x)\n}\n");
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"run", huge_input}, std::vector<std::string>{"run", huge_input, "--backends", "native"}}) {
    ExpectError(Run(command), "huge_input.cir:1:11: variable %x: Tensor[(1073741824, 1073741824), f32] needs "
                              "4611686018427387904 bytes, more than this machine's memory (");
  }
  const std::string huge_intermediate = WriteModel(
      "huge_intermediate.cir",
      "def @main(%x: Tensor[(1073741824, 1), f32]) {\n  sum(broadcast_to(%x, shape=[1073741824, 1073741824]))\n}\n");
  ExpectError(Run({"run", huge_intermediate}), "huge_intermediate.cir:2:7: call to broadcast_to: Tensor[(1073741824, "
                                               "1073741824), f32] needs 4611686018427387904 bytes");
  EXPECT_EQ(Run({"partition", huge_input, "--backends", "native", "--cost", "analytic"}).exit_code, 0);
}

// Bindings can nest tuples without bound; the run time builds tuple values recursively (a
// 50,000-deep chain crashed `run` with a stack overflow), so type checking caps the nesting.
TEST_F(CliTest, ATupleNestedFiftyThousandDeepIsATypeError) {
  constexpr int kDepth = 50000;
  std::string text = "def @main(%x: Tensor[(2), f32]) {\n  %0 = (%x,)\n";
  for (int level = 1; level < kDepth; ++level) {
    text += "  %" + std::to_string(level) + " = (%" + std::to_string(level - 1) + ",)\n";
  }
  text += "  %" + std::to_string(kDepth - 1) + "\n}\n";
  const std::string model = WriteModel("deep.cir", text);
  ExpectError(Run({"run", model}), "deep.cir:258:10: tuple nested deeper than 256 levels");
  ExpectError(Run({"import", model}), "deep.cir:258:10: tuple nested deeper than 256 levels");
}

}  // namespace
}  // namespace collage
