// The names the tools and plan files give the cost models, search levels and graph-stage
// finalist origins, read back and refused when unknown.
#include <gtest/gtest.h>

#include "collage/cost_model.h"
#include "collage/graph_search.h"
#include "collage/search_level.h"

namespace collage {
namespace {

TEST(PlacementNamesTest, CostModelNamesRoundTrip) {
  for (CostModel model : {CostModel::kAnalytic, CostModel::kMeasured}) {
    EXPECT_EQ(ParseCostModel(CostModelName(model)), model);
  }
  EXPECT_EQ(CostModelName(CostModel::kMeasured), "measured");
  EXPECT_EQ(ParseCostModel("Measured"), std::nullopt);
  EXPECT_EQ(ParseCostModel(""), std::nullopt);
}

TEST(PlacementNamesTest, SearchLevelNamesRoundTrip) {
  for (SearchLevel level : {SearchLevel::kOp, SearchLevel::kGraph}) {
    EXPECT_EQ(ParseSearchLevel(SearchLevelName(level)), level);
  }
  EXPECT_EQ(SearchLevelName(SearchLevel::kGraph), "graph");
  EXPECT_EQ(ParseSearchLevel("graphs"), std::nullopt);
}

TEST(PlacementNamesTest, FinalistOriginsPrintAsTheToolShowsThem) {
  EXPECT_EQ(FinalistOrigin::WholeRegion("onednn").ToString(), "all onednn");
  EXPECT_EQ(FinalistOrigin::BestByFitness(2).ToString(), "best 2");
  EXPECT_EQ(FinalistOrigin::PenaltyFree().ToString(), "op-level without transition penalty");
  EXPECT_EQ(FinalistOrigin::MergedAcrossLayouts().ToString(), "op-level merged across layouts");
  EXPECT_EQ(FinalistOrigin::MergedChangingLayouts().ToString(), "op-level merged changing layouts");
  EXPECT_EQ(FinalistOrigin::WholeRegionChangingLayouts("xnnpack").ToString(), "all xnnpack merged changing layouts");
  EXPECT_NE(FinalistOrigin::WholeRegion("onednn"), FinalistOrigin::WholeRegion("xnnpack"));
  EXPECT_NE(FinalistOrigin::BestByFitness(1), FinalistOrigin::BestByFitness(2));
}

}  // namespace
}  // namespace collage
