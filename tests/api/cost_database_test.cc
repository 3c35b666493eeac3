// The public API's view of the measured-cost database: what tuning writes shows in its
// statistics and its CSV export, and clearing it removes every record.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "api/api_test_support.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

TEST(ApiCostDatabaseTest, TuningFillsItAndClearingEmptiesIt) {
  testing::TempDirectory directory;
  const std::string path = directory.PathOf("costs.sqlite");
  EXPECT_EQ(api::ReadCostDatabaseStats(path).entries, 0u);

  const api::Model model = api::Model::Load(testing::kMlpPath);
  api::Place(model, {.backends = {"native"}, .cost = api::CostModel::kMeasured, .database_path = path,
                     .progress_bar = false});
  const api::CostDatabaseStats stats = api::ReadCostDatabaseStats(path);
  EXPECT_EQ(stats.path, path);
  EXPECT_GT(stats.entries, 0u);
  ASSERT_EQ(stats.per_backend.count("native"), 1u);
  EXPECT_GT(stats.per_backend.at("native"), 0u);
  std::ostringstream csv;
  api::ExportCostDatabase(path, csv);
  const std::string text = csv.str();
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), stats.entries + 1) << text;

  const api::ClearedCosts cleared = api::ClearCostDatabase(path);
  EXPECT_EQ(cleared.entries, stats.entries);
  EXPECT_EQ(api::ReadCostDatabaseStats(path).entries, 0u);
}

}  // namespace
}  // namespace collage
