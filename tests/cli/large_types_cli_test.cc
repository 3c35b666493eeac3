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

TEST_F(CliTest, ATupleTypeNestedFiftyThousandDeepIsPrintedInTheError) {
  constexpr int kDepth = 50000;
  std::string text = "def @main(%x: Tensor[(2), f32]) {\n  %0 = (%x,)\n";
  for (int level = 1; level < kDepth; ++level) {
    text += "  %" + std::to_string(level) + " = (%" + std::to_string(level - 1) + ",)\n";
  }
  text += "  nn.relu(%" + std::to_string(kDepth - 1) + ")\n}\n";
  const CliResult result = Run({"run", WriteModel("deep.cir", text)});
  ExpectError(result, "nn.relu");
  EXPECT_NE(result.err.find(std::string(1000, '(') + "Tensor[(2), f32]"), std::string::npos)
      << result.err.substr(0, 300);
}

}  // namespace
}  // namespace collage
