#include "report/graph_svg.h"

#include <gtest/gtest.h>

#include "report/report_test_util.h"
#include "support/subprocess.h"

namespace collage {
namespace {

using report_testing::MakeHandWrittenReport;

bool DotIsInstalled() { return RunProgram({"dot", "-V"}, {.output = "/dev/null", .error = "/dev/null"}) == 0; }

TEST(GraphSvgTest, DotHasAClusterPerPartitionAndNodesInTheirBackendColour) {
  const PlacementReport report = MakeHandWrittenReport();
  const BackendColors colors(report);
  const std::string dot = PlacementGraphToDot(report, colors);
  EXPECT_EQ(dot.rfind("digraph placement {\n", 0), 0u) << dot;
  // Labels are escaped for dot's quoted strings; name and type are two lines.
  EXPECT_NE(dot.find("  n0 [label=\"%in\\\"put\\nTensor[(1, 3), f32]\", fillcolor=\"#ffffff\"];\n"), std::string::npos)
      << dot;
  const std::string first_color = colors.ColorOf("<a&b>");
  const std::string second_color = colors.ColorOf("c'\"d");
  EXPECT_NE(first_color, second_color);
  EXPECT_NE(dot.find("  subgraph cluster_0 {\n    label=\"<a&b>_0 (<a&b>)\"; style=\"rounded\"; color=\"" + first_color +
                     "\"; penwidth=2;\n    n1 [label=\"nn.conv2d\\nTensor[(1, 3), f32]\", fillcolor=\"" + first_color +
                     "\"];\n    n2 [label=\"<relu>\\nTensor[(1, 3), f32]\", fillcolor=\"" + first_color + "\"];\n  }\n"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("  subgraph cluster_1 {\n    label=\"c'\\\"d_1 (c'\\\"d)\"; style=\"rounded\"; color=\"" +
                     second_color + "\"; penwidth=2;\n    n3 [label=\"add&more\\nTensor[(1, 3), f32]\", fillcolor=\"" +
                     second_color + "\"];\n  }\n"),
            std::string::npos)
      << dot;
  for (const char* edge : {"  n0 -> n1;\n", "  n1 -> n2;\n", "  n0 -> n3;\n", "  n2 -> n3;\n"}) {
    EXPECT_NE(dot.find(edge), std::string::npos) << edge << dot;
  }
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
}

TEST(GraphSvgTest, DotRendersToAnSvgElementWithEveryNode) {
  if (!DotIsInstalled()) GTEST_SKIP() << "graphviz (dot) is not installed: scripts/setup.sh installs it";
  const PlacementReport report = MakeHandWrittenReport();
  const SvgRendering rendering = RenderSvg(PlacementGraphToDot(report, BackendColors(report)));
  ASSERT_TRUE(rendering.svg.has_value()) << rendering.problem;
  EXPECT_EQ(rendering.svg->rfind("<svg", 0), 0u);
  EXPECT_NE(rendering.svg->find("</svg>"), std::string::npos);
  // dot writes node names as titles and escapes label text as XML.
  for (const char* node : {"<title>n0</title>", "<title>n3</title>", "&lt;relu&gt;", "add&amp;more"}) {
    EXPECT_NE(rendering.svg->find(node), std::string::npos) << node;
  }
}

TEST(GraphSvgTest, MissingDotProgramGivesAReasonInsteadOfAnSvg) {
  const SvgRendering rendering = RenderSvg("digraph g { a -> b; }", "collage-no-such-dot-program");
  EXPECT_FALSE(rendering.svg.has_value());
  EXPECT_EQ(rendering.problem, "graphviz 'collage-no-such-dot-program' is not installed (or could not be started)");
}

TEST(GraphSvgTest, DotFailureGivesItsFirstMessageLine) {
  if (!DotIsInstalled()) GTEST_SKIP() << "graphviz (dot) is not installed: scripts/setup.sh installs it";
  const SvgRendering rendering = RenderSvg("digraph g { a -> ; }");
  EXPECT_FALSE(rendering.svg.has_value());
  EXPECT_EQ(rendering.problem.rfind("graphviz 'dot' failed (exit status 1): ", 0), 0u) << rendering.problem;
  EXPECT_NE(rendering.problem.find("syntax error"), std::string::npos) << rendering.problem;
}

}  // namespace
}  // namespace collage
