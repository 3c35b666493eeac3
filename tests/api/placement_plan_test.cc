// The public API's placement, plan files and report: every partition listed with its backend,
// ops, layout, estimate and (after a run) its measured time; a saved plan loads back into the
// same placement and outputs, and is refused for another model; the report is written for a
// compiled model and refused for a loaded plan.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "api/api_test_support.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

using testing::CompareWithInterpreter;
using testing::RandomInputs;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ApiPlacementTest, ListsEveryPartitionAndMeasuresItOnceRun) {
  const api::Model model = api::Model::Load(testing::kConvBlockPath);
  api::CompiledModel compiled = api::Compile(model, {.backends = {"native"}});
  api::Placement placement = compiled.placement();
  EXPECT_EQ(placement.cost, api::CostModel::kAnalytic);
  ASSERT_FALSE(placement.partitions.empty());
  double estimated = 0;
  for (const api::PartitionInfo& partition : placement.partitions) {
    EXPECT_EQ(partition.backend, "native");
    EXPECT_FALSE(partition.ops.empty()) << partition.symbol;
    EXPECT_TRUE(partition.layout == "plain" || partition.layout == "nhwc") << partition.layout;
    EXPECT_FALSE(partition.measured_ms.has_value()) << "measured before any run";
    estimated += partition.estimated_ms;
  }
  std::vector<std::string> ops;
  for (const api::PartitionInfo& partition : placement.partitions) ops.insert(ops.end(), partition.ops.begin(), partition.ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "nn.conv2d"), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "nn.max_pool2d"), ops.end());
  EXPECT_GT(estimated, 0);
  EXPECT_LE(estimated, placement.estimated_total_ms * (1 + 1e-9));

  compiled.Run(RandomInputs(model, 1));
  placement = compiled.placement();
  for (const api::PartitionInfo& partition : placement.partitions) {
    ASSERT_TRUE(partition.measured_ms.has_value()) << partition.symbol;
    EXPECT_GT(*partition.measured_ms, 0);
  }
  EXPECT_NE(placement.ToString().find(placement.partitions[0].symbol + "  native"), std::string::npos)
      << placement.ToString();
}

TEST(ApiPlacementTest, ASavedPlanLoadsIntoTheSamePlacementAndOutputs) {
  testing::TempDirectory directory;
  const api::Model model = api::Model::Load(testing::kConvBlockPath);
  std::vector<std::string> backends = {"native"};
  if (testing::HasBackend("onednn")) backends.insert(backends.begin(), "onednn");
  api::CompiledModel compiled = api::Compile(model, {.backends = backends});
  const std::string plan_path = directory.PathOf("conv_block.plan");
  compiled.SavePlan(plan_path);
  EXPECT_EQ(ReadFile(plan_path).rfind("// collage plan ", 0), 0u);

  api::CompiledModel loaded = api::LoadPlan(model, plan_path, 2);
  EXPECT_EQ(loaded.threads(), 2);
  const api::Placement saved = compiled.placement();
  const api::Placement reloaded = loaded.placement();
  ASSERT_EQ(reloaded.partitions.size(), saved.partitions.size());
  for (size_t i = 0; i < saved.partitions.size(); ++i) {
    EXPECT_EQ(reloaded.partitions[i].symbol, saved.partitions[i].symbol);
    EXPECT_EQ(reloaded.partitions[i].backend, saved.partitions[i].backend);
    EXPECT_EQ(reloaded.partitions[i].ops, saved.partitions[i].ops);
    EXPECT_EQ(reloaded.partitions[i].layout, saved.partitions[i].layout);
  }
  EXPECT_EQ(reloaded.backends, backends);
  const std::vector<api::NamedTensor> inputs = RandomInputs(model, 5);
  EXPECT_TRUE(CompareWithInterpreter(model, inputs, loaded.Run(inputs)).ok());

  // Made for conv_block: refused for another model, naming both.
  try {
    api::LoadPlan(api::Model::Load(testing::kMlpPath), plan_path);
    ADD_FAILURE() << "a plan for another model was accepted";
  } catch (const ModelError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("plan '" + plan_path + "' was made for model '" + testing::kConvBlockPath, 0),
              0u)
        << error.what();
  }
}

TEST(ApiPlacementTest, TheReportIsWrittenForACompiledModelAndRefusedForALoadedPlan) {
  testing::TempDirectory directory;
  const api::Model model = api::Model::Load(testing::kConvBlockPath);
  api::CompiledModel compiled = api::Compile(model, {.backends = {"native"}});
  const std::string report_path = directory.PathOf("report.html");
  compiled.WriteReport(report_path);
  const std::string html = ReadFile(report_path);
  EXPECT_NE(html.find("<html"), std::string::npos);
  for (const api::PartitionInfo& partition : compiled.placement().partitions) {
    EXPECT_NE(html.find(partition.symbol), std::string::npos) << partition.symbol;
  }
  const std::string plan_path = directory.PathOf("p.plan");
  compiled.SavePlan(plan_path);
  EXPECT_THROW(api::LoadPlan(model, plan_path).WriteReport(directory.PathOf("loaded.html")), UsageError);
}

}  // namespace
}  // namespace collage
