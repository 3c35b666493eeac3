#include "report/html_report.h"

#include <gtest/gtest.h>

#include "report/html_escape.h"
#include "report/report_test_util.h"

namespace collage {
namespace {

using report_testing::MakeHandWrittenReport;
using report_testing::MakeUnaryChainReport;

const SvgRendering kDrawnGraph{"<svg id=\"drawn\"><g></g></svg>", ""};

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

// The text of the partitions table row whose symbol cell is `symbol` (already escaped).
std::string RowOf(const std::string& html, const std::string& symbol) {
  const size_t cell = html.find("<td><code>" + symbol + "</code></td>");
  if (cell == std::string::npos) return "";
  const size_t start = html.rfind("<tr", cell);
  return html.substr(start, html.find("</tr>", cell) - start);
}

TEST(HtmlEscapeTest, EscapesTheFiveSpecialCharacters) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'd"), "a&lt;b&gt;&amp;&quot;c&#39;d");
  EXPECT_EQ(HtmlEscape("plain text"), "plain text");
}

TEST(HtmlReportTest, EveryStringOfTheReportIsEscaped) {
  const PlacementReport report = MakeHandWrittenReport();
  const std::string html = PlacementReportToHtml(report, BackendColors(report), kDrawnGraph);
  EXPECT_NE(html.find("<title>Collage placement of &lt;m&amp;&quot;x&#39;&gt;.cir</title>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>models/&lt;m&amp;&quot;x&#39;&gt;.cir</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>&lt;a&amp;b&gt;, c&#39;&quot;d</td>"), std::string::npos);
  EXPECT_NE(html.find("2: nn.conv2d+&lt;relu&gt;"), std::string::npos);
  EXPECT_NE(html.find("c&#39;&quot;d(nn.conv2d) + c&#39;&quot;d(&lt;relu&gt;)"), std::string::npos);
  for (const char* raw : {"<a&b>", "<relu>", "<m&", "c'\"d", "add&more"}) {
    EXPECT_EQ(html.find(raw), std::string::npos) << raw;
  }
}

TEST(HtmlReportTest, EveryPartitionHasARowWithItsBackendColourAndFigures) {
  const PlacementReport report = MakeHandWrittenReport();
  const BackendColors colors(report);
  const std::string html = PlacementReportToHtml(report, colors, kDrawnGraph);
  EXPECT_EQ(CountOccurrences(html, "<tr class=\"partition\">"), report.partitions.size());
  const std::string first = RowOf(html, "&lt;a&amp;b&gt;_0");
  const std::string second = RowOf(html, "c&#39;&quot;d_1");
  ASSERT_FALSE(first.empty()) << html;
  ASSERT_FALSE(second.empty()) << html;
  EXPECT_NE(first.find("background: " + colors.ColorOf("<a&b>")), std::string::npos) << first;
  EXPECT_NE(second.find("background: " + colors.ColorOf("c'\"d")), std::string::npos) << second;
  // estimated 0.5, measured 1, ratio 2.00, alternative 0.75 (+0.25).
  EXPECT_NE(first.find("<td class=\"number\">0.5</td><td class=\"number\">1</td><td class=\"number\">2.00</td>"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("<td class=\"number\">0.75</td><td class=\"number\">+0.25</td>"), std::string::npos) << first;
  EXPECT_NE(second.find("<td>only choice</td>"), std::string::npos) << second;
  EXPECT_NE(second.find("<td class=\"number\">0.50</td>"), std::string::npos) << second;
}

TEST(HtmlReportTest, SettingsNameTheReducedPrecisionIsa) {
  PlacementReport report = MakeHandWrittenReport();
  EXPECT_EQ(report.reduced_precision_isa, DescribeReducedPrecisionIsa(DetectReducedPrecisionIsa()));
  report.reduced_precision_isa = "avx2; int8: <none>";
  const std::string html = PlacementReportToHtml(report, BackendColors(report), kDrawnGraph);
  EXPECT_NE(html.find("<tr><th>reduced precision ISA</th><td>avx2; int8: &lt;none&gt;</td></tr>"), std::string::npos)
      << html;
}

TEST(HtmlReportTest, LegendNamesEveryBackendWithItsColour) {
  const PlacementReport report = MakeHandWrittenReport();
  const BackendColors colors(report);
  const std::string html = PlacementReportToHtml(report, colors, kDrawnGraph);
  for (const auto& [backend, color] : colors.entries()) {
    EXPECT_NE(html.find("<span class=\"entry\"><span class=\"swatch\" style=\"background: " + color + "\"></span>" +
                        HtmlEscape(backend) + "</span>"),
              std::string::npos)
        << backend;
  }
}

TEST(HtmlReportTest, TotalsShowTheAdditiveError) {
  const PlacementReport report = MakeHandWrittenReport();
  const std::string html = PlacementReportToHtml(report, BackendColors(report), kDrawnGraph);
  EXPECT_NE(html.find("<tr><th>estimated total ms</th><td class=\"number\">1.5</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>sum of measured partitions ms</th><td class=\"number\">1.5</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><th>measured end-to-end ms (median)</th><td class=\"number\">2</td></tr>"),
            std::string::npos);
  // (2 - 1.5) / 2.
  EXPECT_NE(html.find("<tr><th>additive error</th><td class=\"number\">+25.0%</td></tr>"), std::string::npos) << html;
}

TEST(HtmlReportTest, UnmeasuredReportShowsDashes) {
  const PlacementReport report = MakeUnaryChainReport();
  const std::string html = PlacementReportToHtml(report, BackendColors(report), kDrawnGraph);
  EXPECT_NE(html.find("<tr><th>additive error</th><td class=\"number\">&ndash;</td></tr>"), std::string::npos);
  EXPECT_NE(RowOf(html, "a_0").find("<td class=\"number\">0.5</td><td class=\"number\">&ndash;</td>"),
            std::string::npos)
      << html;
}

TEST(HtmlReportTest, TheGraphIsInlinedOrItsAbsenceExplained) {
  const PlacementReport report = MakeHandWrittenReport();
  const BackendColors colors(report);
  const std::string drawn = PlacementReportToHtml(report, colors, kDrawnGraph);
  EXPECT_NE(drawn.find("<div class=\"graph\">\n<svg id=\"drawn\"><g></g></svg>\n</div>"), std::string::npos);

  const std::string missing = PlacementReportToHtml(report, colors, {std::nullopt, "graphviz 'dot' is not installed"});
  EXPECT_EQ(missing.find("<svg"), std::string::npos);
  EXPECT_NE(missing.find("<p class=\"missing\">The graph is not drawn: graphviz &#39;dot&#39; is not installed.</p>"),
            std::string::npos);
  EXPECT_NE(missing.find("<table class=\"partitions\">"), std::string::npos);
}

TEST(HtmlReportTest, RefusedCandidatesListSlowPathsFirst) {
  PlacementReport report = MakeHandWrittenReport();
  report.cost_model = CostModel::kMeasured;
  report.refused = {{"b: nn.relu (1x4)", "b: op nn.relu is <not> supported"},
                    {"onednn: multiply (1x16x5x5)",
                     "onednn: slow path: oneDNN runs the binary of multiply only in its reference implementation "
                     "(ref:any); refused"}};
  const std::string html = PlacementReportToHtml(report, BackendColors(report), kDrawnGraph);
  EXPECT_NE(html.find("<h2>Refused candidates</h2>\n<p>2 candidates could not be compiled; 1 of them would have run a "
                      "slow path"),
            std::string::npos)
      << html;
  const size_t slow = html.find("<tr class=\"slow-path\"><td>onednn: multiply (1x16x5x5)</td><td>onednn: slow path: ");
  const size_t other = html.find("<tr class=\"refusal\"><td>b: nn.relu (1x4)</td><td>b: op nn.relu is &lt;not&gt; "
                                 "supported</td></tr>");
  ASSERT_NE(slow, std::string::npos) << html;
  ASSERT_NE(other, std::string::npos) << html;
  EXPECT_LT(slow, other);

  report.refused.clear();
  EXPECT_NE(PlacementReportToHtml(report, BackendColors(report), kDrawnGraph)
                .find("<h2>Refused candidates</h2>\n<p>No backend refused a candidate.</p>"),
            std::string::npos);
  report.cost_model = CostModel::kAnalytic;  // nothing is compiled, so nothing can be refused
  EXPECT_EQ(PlacementReportToHtml(report, BackendColors(report), kDrawnGraph).find("Refused candidates"),
            std::string::npos);
}

TEST(HtmlReportTest, RenderWithoutDotStillWritesTheWholeReport) {
  const PlacementReport report = MakeHandWrittenReport();
  const std::string html = RenderPlacementReport(report, "collage-no-such-dot-program");
  EXPECT_NE(html.find("The graph is not drawn: graphviz &#39;collage-no-such-dot-program&#39; is not installed"),
            std::string::npos);
  EXPECT_EQ(CountOccurrences(html, "<tr class=\"partition\">"), 2u);
  EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
}

}  // namespace
}  // namespace collage
