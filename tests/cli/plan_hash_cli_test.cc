// The plan hash: a plan whose text was changed after `collage partition` wrote it (a
// constant, a header line) is refused with a one-line error; the plan as written runs.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_fixture.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

constexpr const char* kModelWithWeights = R"(def @main(%x: Tensor[(2), f32]) {
  multiply(add(%x, constant([1.5, 2.5], Tensor[(2), f32])), %x)
}
)";

std::string ReplaceOnce(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in " << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class PlanHashTest : public CliTest {
 protected:
  void SetUp() override {
    model_ = WriteModel("m.cir", kModelWithWeights);
    plan_ = directory_.PathOf("m.plan");
    const CliResult partitioned = Run({"partition", model_, "--backends", "reference", "-o", plan_});
    ASSERT_EQ(partitioned.exit_code, 0) << partitioned.err;
    text_ = ReadFile(plan_);
  }
  std::string model_, plan_, text_;
};

TEST_F(PlanHashTest, ThePlanAsWrittenRuns) {
  EXPECT_NE(text_.find("\n// plan hash: "), std::string::npos) << text_;
  const CliResult run = Run({"run", model_, "--plan", plan_, "--check"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(PlanHashTest, AnEditedConstantIsRefused) {
  WriteFile(plan_, ReplaceOnce(text_, "2.5", "7.5"));
  ExpectError(Run({"run", model_, "--plan", plan_}), "plan header: the plan hash ");
  EXPECT_NE(Run({"run", model_, "--plan", plan_}).err.find("does not match the plan's text"), std::string::npos);
}

TEST_F(PlanHashTest, AnEditedHeaderIsRefused) {
  WriteFile(plan_, ReplaceOnce(text_, "// cost: analytic", "// cost: measured"));
  ExpectError(Run({"run", model_, "--plan", plan_}), "does not match the plan's text");
}

TEST_F(PlanHashTest, AnEditedHashIsRefused) {
  const size_t at = text_.find("// plan hash: ") + std::string("// plan hash: ").size();
  std::string edited = text_;
  edited[at] = edited[at] == '0' ? '1' : '0';
  WriteFile(plan_, edited);
  ExpectError(Run({"run", model_, "--plan", plan_}), "does not match the plan's text");
}

TEST_F(PlanHashTest, APlanWithoutHashIsRefused) {
  const size_t start = text_.find("// plan hash: ");
  std::string without = text_;
  without.erase(start, text_.find('\n', start) + 1 - start);
  WriteFile(plan_, without);
  ExpectError(Run({"run", model_, "--plan", plan_}), "expected '// plan hash: ...'");
  WriteFile(plan_, ReplaceOnce(without, "// collage plan 4", "// collage plan 1"));
  ExpectError(Run({"run", model_, "--plan", plan_}), "plan format 1 has no plan hash");
  WriteFile(plan_, ReplaceOnce(text_, "// collage plan 4", "// collage plan 2"));
  ExpectError(Run({"run", model_, "--plan", plan_}), "plan format 2 has no boundary layouts");
  WriteFile(plan_, ReplaceOnce(text_, "// collage plan 4", "// collage plan 3"));
  ExpectError(Run({"run", model_, "--plan", plan_}), "plan format 3 has no precisions");
}

}  // namespace
}  // namespace collage
