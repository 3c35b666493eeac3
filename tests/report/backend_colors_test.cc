#include "report/backend_colors.h"

#include <gtest/gtest.h>

#include <set>

#include "support/error.h"

namespace collage {
namespace {

TEST(BackendColorsTest, ListedBackendsGetDistinctColoursInOrderThenPartitionBackends) {
  PlacementReport report;
  report.backends = {"x", "y", "z"};
  report.partitions.push_back({.symbol = "w_0", .backend = "w", .ops = 1, .label = "add", .estimated_ms = {},
                               .measured_ms = {}, .alternative = {}});
  report.partitions.push_back({.symbol = "y_1", .backend = "y", .ops = 1, .label = "add", .estimated_ms = {},
                               .measured_ms = {}, .alternative = {}});
  const BackendColors colors(report);
  ASSERT_EQ(colors.entries().size(), 4u);
  EXPECT_EQ(colors.entries()[0].first, "x");
  EXPECT_EQ(colors.entries()[3].first, "w");
  std::set<std::string> distinct;
  for (const auto& [backend, color] : colors.entries()) {
    EXPECT_EQ(colors.ColorOf(backend), color);
    EXPECT_EQ(color.size(), 7u);
    EXPECT_EQ(color[0], '#');
    distinct.insert(color);
  }
  EXPECT_EQ(distinct.size(), 4u);
  EXPECT_THROW(colors.ColorOf("v"), Error);
}

TEST(BackendColorsTest, ColoursDependOnTheOrderNamedNotOnTheName) {
  PlacementReport first;
  first.backends = {"p", "q"};
  PlacementReport second;
  second.backends = {"r", "s"};
  EXPECT_EQ(BackendColors(first).ColorOf("q"), BackendColors(second).ColorOf("s"));
}

TEST(BackendColorsTest, PaletteRepeatsPastItsSize) {
  PlacementReport report;
  for (int backend = 0; backend < 11; ++backend) report.backends.push_back("b" + std::to_string(backend));
  const BackendColors colors(report);
  std::set<std::string> distinct;
  for (int backend = 0; backend < 10; ++backend) distinct.insert(colors.ColorOf("b" + std::to_string(backend)));
  EXPECT_EQ(distinct.size(), 10u);
  EXPECT_EQ(colors.ColorOf("b10"), colors.ColorOf("b0"));
}

}  // namespace
}  // namespace collage
