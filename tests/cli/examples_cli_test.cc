// The shipped examples under examples/ work under every command that places a model.
#include <gtest/gtest.h>

#include <string>

#include "build_paths.h"
#include "cli/cli_fixture.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

std::string Example(const std::string& name) { return std::string(COLLAGE_SOURCE_DIR) + "/examples/" + name; }

TEST_F(CliTest, MlpExamplePartitionsAndRunsItsPlan) {
  const std::string plan = directory_.PathOf("mlp.plan");
  const CliResult partitioned = Run({"partition", Example("mlp.cir"), "-o", plan});
  ASSERT_EQ(partitioned.exit_code, 0) << partitioned.err;
  EXPECT_NE(partitioned.out.find("plan written to"), std::string::npos) << partitioned.out;
  const CliResult run = Run({"run", Example("mlp.cir"), "--plan", plan, "--check"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(CliTest, MlpExampleBenches) {
  const CliResult bench = Run({"bench", Example("mlp.cir"), "--repeat", "1", "--threads", "1", "--db",
                               directory_.PathOf("costs.sqlite")});
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("collage vs best single"), std::string::npos) << bench.out;
}

}  // namespace
}  // namespace collage
