// Output paths that name a file the command reads are refused with a one-line error before
// anything is written, whatever the spelling: the same path, another spelling of it, a
// symbolic link, a hard link.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli/cli_fixture.h"
#include "io/npz.h"
#include "runtime/cost_database.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

class OutputPathsTest : public CliTest {
 protected:
  void SetUp() override {
    model_ = WriteModel("m.cir", kTupleModel);
    original_ = ReadFile(model_);
  }
  // Expects the refusal naming `output_role` and `input_role`, and the model file untouched.
  void ExpectRefused(const CliResult& result, const std::string& output_role, const std::string& input_role) {
    ExpectError(result, output_role + " '");
    EXPECT_NE(result.err.find("' is the same file as " + input_role + " '"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("': refusing to overwrite it"), std::string::npos) << result.err;
    EXPECT_EQ(ReadFile(model_), original_);
  }
  std::string model_, original_;
};

TEST_F(OutputPathsTest, PartitionRefusesToWriteThePlanOverTheModel) {
  ExpectRefused(Run({"partition", model_, "-o", model_}), "--output", "MODEL");
  const std::string dotted = directory_.PathOf("./sub/../m.cir");
  std::filesystem::create_directory(directory_.PathOf("sub"));
  ExpectRefused(Run({"partition", model_, "-o", dotted}), "--output", "MODEL");
  const std::string link = directory_.PathOf("link.cir");
  std::filesystem::create_symlink(model_, link);
  ExpectRefused(Run({"partition", model_, "-o", link}), "--output", "MODEL");
  const std::string hard_link = directory_.PathOf("hard.cir");
  std::filesystem::create_hard_link(model_, hard_link);
  ExpectRefused(Run({"partition", hard_link, "--report", model_}), "--report", "MODEL");
  ExpectRefused(Run({"partition", model_, "-o", directory_.PathOf("p.plan"), "--report", directory_.PathOf("p.plan")}),
                "--report", "--output");
  // A new file next to the model is fine.
  const CliResult written = Run({"partition", model_, "-o", directory_.PathOf("m.plan")});
  EXPECT_EQ(written.exit_code, 0) << written.err;
}

TEST_F(OutputPathsTest, PartitionAndBenchRefuseToWriteOverTheCostDatabase) {
  const std::string database = directory_.PathOf("costs.sqlite");
  CostDatabase::Open(database);
  ExpectRefused(Run({"partition", model_, "--cost", "measured", "--db", database, "-o", database}), "--output",
                "--db");
  ExpectRefused(Run({"bench", model_, "--db", database, "--json", database}), "--json", "--db");
  ExpectRefused(Run({"bench", model_, "--db", directory_.PathOf("other.sqlite"), "--json", model_}), "--json",
                "MODEL");
  ExpectRefused(Run({"bench", model_, "--db", database, "-o", database}), "--output", "--db");
  ExpectRefused(Run({"bench", model_, "--db", directory_.PathOf("other.sqlite"), "-o", model_}), "--output", "MODEL");
}

TEST_F(OutputPathsTest, DbExportRefusesToWriteOverTheDatabase) {
  const std::string database = directory_.PathOf("costs.sqlite");
  CostDatabase::Open(database).Store({"aa", "onednn", "3", "cpu", 1}, CostRecord{});
  ExpectRefused(Run({"db", "export", "-o", database, "--db", database}), "--output", "--db");
  ExpectRefused(Run({"db", "export", "-o", database + "-wal", "--db", database}), "--output", "--db (write-ahead log)");
  EXPECT_EQ(CostDatabase::Open(database).GetStats().entries, 1u);
}

TEST_F(OutputPathsTest, RunRefusesToWriteOutputsOverItsInputs) {
  const std::string inputs = directory_.PathOf("in.npz");
  WriteNpz(inputs, {{"x", Tensor::Random(DType::kF32, {2, 3}, 1)}, {"y", Tensor::Random(DType::kF32, {3}, 2)}});
  const std::string before = ReadFile(inputs);
  ExpectRefused(Run({"run", model_, "--inputs", inputs, "--outputs", inputs}), "--outputs", "--inputs");
  EXPECT_EQ(ReadFile(inputs), before);
  ExpectRefused(Run({"run", model_, "--outputs", model_}), "--outputs", "MODEL");
  const CliResult written = Run({"run", model_, "--inputs", inputs, "--outputs", directory_.PathOf("out.npz")});
  EXPECT_EQ(written.exit_code, 0) << written.err;
}

}  // namespace
}  // namespace collage
