// The placement pipeline called as a library, as the CLI's partition and bench commands call
// it: the op-level placement with analytic costs, the graph stage on measured costs with its
// typed finalist origins and final decision, and the plan file round trip.
#include "pipeline/model_partitioner.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "backend/backend.h"
#include "build_paths.h"
#include "pipeline/model_loader.h"
#include "pipeline/plan_file.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

const std::string kConvBlock = std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir";

bool HasBackend(const std::string& name) { return BackendRegistry::Global().Find(name) != nullptr; }

TEST(ModelPartitionerTest, AnalyticPlacementCoversEveryFunctionAndItsPlanFileRoundTrips) {
  PartitionRequest request;
  request.model_path = kConvBlock;
  request.backends = {"reference", "native"};
  request.show_progress = false;
  const Module model = LoadModelForPlacement(kConvBlock);
  const ModelPlacement placement = PlaceModel(model, request);
  ASSERT_EQ(placement.functions.size(), model.functions().size());
  EXPECT_FALSE(placement.graph_stage.has_value());
  EXPECT_FALSE(placement.tuning.has_value());
  EXPECT_EQ(placement.plan.cost_model, CostModel::kAnalytic);
  ASSERT_FALSE(placement.plan.partitions.empty());
  for (const PlannedPartition& partition : placement.plan.partitions) {
    EXPECT_TRUE(partition.backend == "reference" || partition.backend == "native") << partition.backend;
  }
  const Plan reread = ParsePlan(PlanToText(placement.plan), "conv_block.plan");
  EXPECT_EQ(reread.cost_model, placement.plan.cost_model);
  EXPECT_EQ(reread.partitions.size(), placement.plan.partitions.size());
  EXPECT_EQ(PlanToText(reread), PlanToText(placement.plan));
}

TEST(ModelPartitionerTest, AnUnknownCostModelInAPlanIsAnErrorNamingTheLine) {
  PartitionRequest request;
  request.model_path = kConvBlock;
  request.backends = {"reference"};
  request.show_progress = false;
  const std::string text = PlanToText(PlaceModel(LoadModelForPlacement(kConvBlock), request).plan);
  std::string edited = text;
  edited.replace(edited.find("// cost: analytic"), 17, "// cost: guessed");
  try {
    ParsePlan(edited, "edited.plan");
    ADD_FAILURE() << "an unknown cost model was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown cost model 'guessed' (expected analytic or measured)"),
              std::string::npos)
        << error.what();
  }
}

// A partition header's layout names a uniform boundary ("nhwc") or a mixed one
// ("plain>nhwc"); both round-trip, and an unknown one is an error naming the line.
TEST(ModelPartitionerTest, PlanHeadersNameMixedBoundaries) {
  PartitionRequest request;
  request.model_path = kConvBlock;
  request.backends = {"native"};
  request.show_progress = false;
  Plan plan = PlaceModel(LoadModelForPlacement(kConvBlock), request).plan;
  ASSERT_FALSE(plan.partitions.empty());
  const std::string text = PlanToText(plan);
  const size_t layout = text.find(" layout=plain ");
  ASSERT_NE(layout, std::string::npos) << text;
  plan.partitions[0].layout = {Layout::kPlain, Layout::kChannelsLast};
  const std::string mixed = PlanToText(plan);
  EXPECT_NE(mixed.find(" layout=plain>nhwc "), std::string::npos) << mixed;
  const Plan reread = ParsePlan(mixed, "mixed.plan");
  EXPECT_EQ(reread.partitions[0].layout, (PartitionLayouts{Layout::kPlain, Layout::kChannelsLast}));
  EXPECT_EQ(PlanToText(reread), mixed);
  std::string unknown = text;
  unknown.replace(layout, 14, " layout=plain>nchw4c ");
  try {
    ParsePlan(unknown, "unknown.plan");
    ADD_FAILURE() << "an unknown boundary was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown layout 'plain>nchw4c'"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("unknown.plan:"), std::string::npos) << error.what();
  }
}

TEST(ModelPartitionerTest, GraphStageOffersTheRegionBackendAndDecidesByAFinalMeasurement) {
  if (!HasBackend("onednn")) GTEST_SKIP() << "built without onednn";
  testing::TempDirectory directory;
  PartitionRequest request;
  request.model_path = kConvBlock;
  request.backends = {"onednn", "native"};
  request.cost_model = CostModel::kMeasured;
  request.database_path = directory.PathOf("costs.sqlite");
  request.search = SearchLevel::kGraph;
  request.graph_budget_seconds = 2;
  request.show_progress = false;
  const ModelPlacement placement = PlaceModel(LoadModelForPlacement(kConvBlock), request);
  ASSERT_TRUE(placement.graph_stage.has_value());
  ASSERT_TRUE(placement.tuning.has_value());
  const ModelPlacement::GraphStage& stage = *placement.graph_stage;
  EXPECT_EQ(stage.finalist_ms.size(), stage.finalist_origins.size());
  ASSERT_FALSE(stage.finalist_origins.empty());
  // The whole-region placement comes first, unless it is the op-level plan itself: every
  // partition on onednn, as the hand-over penalty between the two backends often makes it, or
  // onednn's whole region kept by the op-level comparison with whole regions.
  const bool op_level_all_onednn =
      std::all_of(stage.op_level_plan.partitions.begin(), stage.op_level_plan.partitions.end(),
                  [](const PlannedPartition& partition) { return partition.backend == "onednn"; });
  const std::optional<WholeRegionComparison>& comparison = placement.functions.front().result.whole_regions;
  ASSERT_TRUE(comparison.has_value());
  const bool op_level_is_onednn_region =
      comparison->kept && comparison->alternatives[*comparison->kept].spec == "onednn";
  if (op_level_all_onednn || op_level_is_onednn_region) {
    EXPECT_EQ(std::count(stage.finalist_origins.begin(), stage.finalist_origins.end(),
                         FinalistOrigin::WholeRegion("onednn")),
              0);
  } else {
    EXPECT_EQ(stage.finalist_origins.front(), FinalistOrigin::WholeRegion("onednn"));
  }
  EXPECT_GT(stage.op_level_ms, 0);
  EXPECT_LE(stage.kept_finalist, stage.finalist_ms.size());
  EXPECT_EQ(stage.FinalDecision().rfind("final interleaved measurement: op-level ", 0), 0u) << stage.FinalDecision();
  // Then the partitions of every plan it measured, in order.
  ASSERT_EQ(stage.finalist_plans.size(), stage.finalist_ms.size());
  const std::string decision = stage.FinalDecision();
  const size_t op_level_line = decision.find("\n  op-level: " + stage.op_level_plan.partitions.front().backend);
  EXPECT_NE(op_level_line, std::string::npos) << decision;
  size_t previous = op_level_line;
  for (size_t rank = 0; rank < stage.finalist_plans.size(); ++rank) {
    const size_t line = decision.find("\n  finalist " + std::to_string(rank + 1) + " (" +
                                      stage.finalist_origins[rank].ToString() + "): " +
                                      stage.finalist_plans[rank].partitions.front().backend);
    EXPECT_NE(line, std::string::npos) << decision;
    EXPECT_GT(line, previous) << decision;
    previous = line;
  }
  // The plan is the op-level one unless a finalist replaced it.
  EXPECT_EQ(PlanToText(placement.plan) == PlanToText(stage.op_level_plan), !stage.replaced());
  EXPECT_EQ(placement.plan.cost_model, CostModel::kMeasured);
}

}  // namespace
}  // namespace collage
