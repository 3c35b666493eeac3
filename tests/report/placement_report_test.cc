#include "report/placement_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "collage/collage_test_graphs.h"
#include "collage/partition_spec.h"
#include "report/report_test_util.h"
#include "support/error.h"

namespace collage {
namespace {

using report_testing::MakeUnaryChainReport;

TEST(PlacementReportTest, PartitionsCarryEstimatesAndTheBestLosingAlternative) {
  const PlacementReport report = MakeUnaryChainReport();
  ASSERT_EQ(report.partitions.size(), 2u);
  const ReportPartition& relu = report.partitions[0];
  EXPECT_EQ(relu.symbol, "a_0");
  EXPECT_EQ(relu.backend, "a");
  EXPECT_EQ(relu.ops, 1u);
  EXPECT_EQ(relu.label, "nn.relu");
  EXPECT_DOUBLE_EQ(relu.estimated_ms.value(), 0.5);
  EXPECT_FALSE(relu.alternative.has_value());
  EXPECT_FALSE(relu.measured_ms.has_value());

  const ReportPartition& rest = report.partitions[1];
  EXPECT_EQ(rest.symbol, "b_1");
  EXPECT_EQ(rest.ops, 2u);
  EXPECT_EQ(rest.label, "tanh+exp");
  EXPECT_DOUBLE_EQ(rest.estimated_ms.value(), 1.0);
  ASSERT_TRUE(rest.alternative.has_value());
  EXPECT_EQ(rest.alternative->description, "b(tanh) + b(exp)");
  EXPECT_DOUBLE_EQ(rest.alternative->estimated_ms, 2.0);
  EXPECT_DOUBLE_EQ(rest.alternative->loss_ms, 1.0);
  EXPECT_DOUBLE_EQ(report.estimated_total_ms, 1.5);
}

TEST(PlacementReportTest, GraphHasOneNodePerParameterAndOpCallInItsPartition) {
  const PlacementReport report = MakeUnaryChainReport();
  ASSERT_EQ(report.nodes.size(), 4u);
  EXPECT_EQ(report.nodes[0].label, "%x");
  EXPECT_FALSE(report.nodes[0].partition.has_value());
  EXPECT_TRUE(report.nodes[0].inputs.empty());
  const std::vector<std::string> labels = {"nn.relu", "tanh", "exp"};
  const std::vector<size_t> partitions = {0, 1, 1};
  for (size_t node = 1; node < 4; ++node) {
    EXPECT_EQ(report.nodes[node].label, labels[node - 1]);
    EXPECT_EQ(report.nodes[node].type, "Tensor[(2, 3), f32]");
    ASSERT_TRUE(report.nodes[node].partition.has_value());
    EXPECT_EQ(*report.nodes[node].partition, partitions[node - 1]);
    EXPECT_EQ(report.nodes[node].inputs, std::vector<size_t>{node - 1});
  }
}

// x -> (relu(x), tanh(x)) -> add(t.0, t.1): the tuple and the projections are not drawn, the
// add's producers are relu and tanh.
TEST(PlacementReportTest, EdgesGoThroughTuplesAndProjections) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  Expr tuple = MakeTuple({CallOp("nn.relu", {x}), CallOp("tanh", {x})});
  const Function function =
      MakeFunction({x}, CallOp("add", {MakeTupleGetItem(tuple, 0), MakeTupleGetItem(tuple, 1)}));
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition&) { return Cost::Seconds(1e-3); });
  PartitionOptions options;
  options.explain = true;
  const PartitionResult result = Partition(
      function, {MakeOpPredicateSpec(collage_testing::Declare("a", {"nn.relu", "tanh", "add"})), MakeHostSpec()},
      estimator, options);
  PlacementReport report;
  AddPartitionedFunction(report, function, result, estimator);
  ASSERT_EQ(report.nodes.size(), 4u);
  std::map<std::string, size_t> node_of;
  for (size_t node = 0; node < report.nodes.size(); ++node) node_of[report.nodes[node].label] = node;
  ASSERT_EQ(node_of.count("add"), 1u);
  std::vector<size_t> expected = {node_of["nn.relu"], node_of["tanh"]};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(report.nodes[node_of["add"]].inputs, expected);
  for (const ReportPartition& partition : report.partitions) EXPECT_FALSE(partition.symbol.empty());
}

TEST(PlacementReportTest, MeasurementsFillPartitionsByTheirSymbolAndGiveTheAdditiveError) {
  PlacementReport report = MakeUnaryChainReport();
  EXPECT_FALSE(report.MeasuredPartitionsMs().has_value());
  EXPECT_FALSE(report.AdditiveError().has_value());
  std::vector<ProfileRow> rows(3);
  rows[0].call = {"b_1", "b", 2};
  rows[0].median_ms = 1.5;
  rows[1].call = {"a_0", "a", 1};
  rows[1].median_ms = 0.25;
  rows[2].call = {"host_0", "fallback", 1};
  rows[2].median_ms = 0.25;
  AddMeasurements(report, rows, 2.5, 10);

  ASSERT_EQ(report.partitions.size(), 3u);
  EXPECT_DOUBLE_EQ(report.partitions[0].measured_ms.value(), 0.25);
  EXPECT_DOUBLE_EQ(report.partitions[0].MeasuredOverEstimated().value(), 0.5);
  EXPECT_DOUBLE_EQ(report.partitions[1].measured_ms.value(), 1.5);
  EXPECT_DOUBLE_EQ(report.partitions[1].MeasuredOverEstimated().value(), 1.5);
  // A step the executor added is listed without an estimate.
  EXPECT_EQ(report.partitions[2].symbol, "host_0");
  EXPECT_EQ(report.partitions[2].backend, "fallback");
  EXPECT_FALSE(report.partitions[2].estimated_ms.has_value());
  EXPECT_FALSE(report.partitions[2].MeasuredOverEstimated().has_value());

  EXPECT_EQ(report.measured_runs, 10u);
  EXPECT_DOUBLE_EQ(report.MeasuredPartitionsMs().value(), 2.0);
  // (2.5 measured - 1.5 estimated) / 2.5.
  EXPECT_DOUBLE_EQ(report.AdditiveError().value(), 0.4);
}

TEST(PlacementReportTest, ResultWithoutExplanationIsAnError) {
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition&) { return Cost::Seconds(1e-3); });
  const Function function = collage_testing::MakeUnaryChain();
  const PartitionResult result = Partition(
      function, {MakeOpPredicateSpec(collage_testing::Declare("a", {"nn.relu", "tanh", "exp"}))}, estimator);
  PlacementReport report;
  EXPECT_THROW(AddPartitionedFunction(report, function, result, estimator), Error);
}

}  // namespace
}  // namespace collage
