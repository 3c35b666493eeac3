// The graph-level stage through the public API: measured costs in a fresh database, tuning
// progress reported to the caller, the evolutionary search and the final measurement, and a
// placement whose outputs equal the interpreter's.
#include <gtest/gtest.h>

#include "api/api_test_support.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

TEST(ApiGraphStageTest, MeasuredGraphSearchReportsProgressAndRunsCorrectly) {
  if (!testing::HasBackend("onednn")) GTEST_SKIP() << "built without onednn";
  testing::TempDirectory directory;
  const api::Model model = api::Model::Load(testing::kConvBlockPath);
  std::vector<api::TuningProgress> progress;
  api::CompileOptions options;
  options.backends = {"onednn", "native"};
  options.cost = api::CostModel::kMeasured;
  options.search = api::SearchLevel::kGraph;
  options.graph_budget_seconds = 2;
  options.database_path = directory.PathOf("costs.sqlite");
  options.progress_bar = false;
  options.on_progress = [&](const api::TuningProgress& step) { progress.push_back(step); };
  api::CompiledModel compiled = api::Compile(model, options);

  ASSERT_FALSE(progress.empty()) << "a fresh database measures, and measuring reports progress";
  EXPECT_EQ(progress.back().stage, "measuring");
  EXPECT_EQ(progress.back().done, progress.back().total);
  EXPECT_FALSE(progress.back().current.empty());
  const api::Placement placement = compiled.placement();
  EXPECT_EQ(placement.cost, api::CostModel::kMeasured);
  for (const api::PartitionInfo& partition : placement.partitions) {
    EXPECT_TRUE(partition.backend == "onednn" || partition.backend == "native") << partition.backend;
  }
  const std::vector<api::NamedTensor> inputs = testing::RandomInputs(model, 11);
  const Comparison comparison = testing::CompareWithInterpreter(model, inputs, compiled.Run(inputs));
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;

  // The second tuning recalls every cost: nothing is measured, so no progress is reported;
  // unless costs were timed while the machine was busier than it is now, which it measures again.
  progress.clear();
  const api::CompiledModel warm =
      api::Compile(model, {.backends = {"onednn", "native"}, .cost = api::CostModel::kMeasured,
                           .database_path = options.database_path, .progress_bar = false,
                           .on_progress = options.on_progress});
  const std::optional<api::SearchSummary> search = warm.search();
  ASSERT_TRUE(search && search->tuning);
  EXPECT_EQ(search->measured_candidates, search->busier_machine_candidates) << *search->tuning;
  EXPECT_EQ(progress.empty(), search->measured_candidates == 0) << progress.size() << " progress reports";
}

}  // namespace
}  // namespace collage
