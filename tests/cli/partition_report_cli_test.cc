// `collage partition --report`: the command measures the placed model and writes the HTML report.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_fixture.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

TEST_F(CliTest, PartitionReportWritesTheTableAndTheGraph) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string report = directory_.PathOf("r.html");
  const CliResult result = Run({"partition", model, "--backends", "reference", "--threads", "1", "--report", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\nreport written to " + report + "\n"), std::string::npos) << result.out;
  const std::string html = ReadFile(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<table class=\"partitions\">"), std::string::npos);
  EXPECT_EQ(CountOccurrences(html, "<tr class=\"partition\">"), 2u) << html;
  EXPECT_NE(html.find("<code>reference_0</code>"), std::string::npos);
  EXPECT_NE(html.find("<code>reference_1</code>"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos) << "is graphviz installed (scripts/setup.sh)?";
  EXPECT_NE(html.find("<tr><th>threads</th><td>1</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>timed runs</th><td>10</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<th>additive error</th><td class=\"number\">"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST_F(CliTest, PartitionReportToAnUnwritablePathIsAnError) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string report = directory_.PathOf("no_such_folder/r.html");
  ExpectError(Run({"partition", model, "--backends", "reference", "--threads", "1", "--report", report}),
              "'" + report + "'");
}

}  // namespace
}  // namespace collage
