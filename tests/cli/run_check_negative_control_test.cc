// `collage run --check` against deliberately wrong backends (testing/wrong_backends.h), run
// through the tool built with them: each run succeeds without --check and fails with exit
// status 1 under --check, while the reference backend passes on the same model.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "build_paths.h"
#include "cli/cli_fixture.h"

namespace collage::testing {
namespace {

// One connected graph with a broadcast operand and two outputs of one type.
constexpr const char* kBroadcastTupleModel = R"(def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(3), f32]) {
  %0 = add(%x, %y)
  %1 = multiply(%0, %0)
  (%0, nn.relu(%1))
}
)";

TEST_F(CliTest, RunCheckFailsOnEveryWrongBackend) {
  const std::string tuple_model = WriteModel("tuple.cir", kBroadcastTupleModel);
  const std::string conv_model = std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir";
  const std::vector<std::pair<std::string, std::string>> cases = {{"wrong-small-error", tuple_model},
                                                                  {"wrong-broadcast", tuple_model},
                                                                  {"wrong-swapped-outputs", tuple_model},
                                                                  {"wrong-window", conv_model}};
  const std::string tool = WrongBackendsCliPath();
  for (const auto& [backend, model] : cases) {
    SCOPED_TRACE(backend);
    const CliResult right = RunTool(tool, {"run", model, "--backends", "reference", "--check"});
    EXPECT_EQ(right.exit_code, 0) << right.err;
    const CliResult unchecked = RunTool(tool, {"run", model, "--backends", backend, "--profile"});
    EXPECT_EQ(unchecked.exit_code, 0) << unchecked.err;
    EXPECT_NE(unchecked.out.find(backend), std::string::npos) << "the model did not run on " << backend << ":\n"
                                                              << unchecked.out;
    const CliResult checked = RunTool(tool, {"run", model, "--backends", backend, "--check"});
    ExpectError(checked, "--check: ");
    EXPECT_NE(checked.err.find("elements differ from the reference"), std::string::npos) << checked.err;
    EXPECT_NE(checked.out.find("max abs error: "), std::string::npos) << checked.out;
  }
}

}  // namespace
}  // namespace collage::testing
