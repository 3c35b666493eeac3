// Types at the limits: tensor types whose size overflows 64 bits and tuple types nested
// tens of thousands deep give one-line errors, never a crash.
#include <gtest/gtest.h>

#include <string>

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
