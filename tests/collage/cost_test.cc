#include "collage/cost.h"

#include <gtest/gtest.h>

#include "collage/cost_estimator.h"
#include "collage/partition_rule.h"
#include "collage_test_graphs.h"

namespace collage {
namespace {

TEST(CostTest, TotalOrderWithUnknownThenInvalidLast) {
  EXPECT_LT(Cost::Seconds(1), Cost::Seconds(2));
  EXPECT_LT(Cost::Seconds(1e9), Cost::Unknown());
  EXPECT_LT(Cost::Unknown(), Cost::Invalid());
  EXPECT_EQ(Cost::Unknown(), Cost::Unknown());
  EXPECT_EQ(Cost::Invalid(), Cost::Invalid());
  EXPECT_FALSE(Cost::Invalid() < Cost::Invalid());
}

TEST(CostTest, AdditionAndPrinting) {
  EXPECT_EQ((Cost::Seconds(1.5) + Cost::Seconds(2)).seconds(), 3.5);
  EXPECT_TRUE((Cost::Seconds(1) + Cost::Unknown()).IsUnknown());
  EXPECT_TRUE((Cost::Unknown() + Cost::Invalid()).IsInvalid());
  EXPECT_EQ(Cost::Seconds(0.25).ToString(), "0.25s");
  EXPECT_EQ(Cost::Invalid().ToString(), "invalid");
  EXPECT_EQ(Cost::Unknown().ToString(), "unknown");
}

TEST(AnalyticCostEstimatorTest, RooflineAndUnknownBackend) {
  Var x = MakeVar("x", testing::F32({4, 8}));
  Var w = MakeVar("w", testing::F32({16, 8}));
  const Function function = MakeFunction({x, w}, CallOp("nn.relu", {CallOp("nn.dense", {x, w})}));
  const DataflowGraph graph = collage_testing::GraphOf(function);  // x=0 w=1 dense=2 relu=3
  // dense: 2 * 4*16 * 8 = 1024 FLOPs; relu: 64. Bytes of the fused pair: (32 + 128 + 64) * 4 = 896.
  EXPECT_EQ(AnalyticCostEstimator::Flops(*As<CallNode>(graph.node(2).expr)), 1024.0);
  BackendPerformance slow_compute{.peak_flops = 1000, .memory_bandwidth = 1e12, .launch_overhead = 1,
                                  .default_efficiency = 1.0, .op_efficiency = {{"nn.dense", 0.5}}};
  BackendPerformance cannot_dense{.peak_flops = 1000, .memory_bandwidth = 1e12, .launch_overhead = 1,
                                  .default_efficiency = 1.0, .op_efficiency = {{"nn.dense", 0.0}}};
  AnalyticCostEstimator estimator({{"a", slow_compute}, {"b", cannot_dense}});
  const SubGraph fused(graph, IndexSet(graph.size(), {2, 3}));
  // compute: 1024 / 500 + 64 / 1000 = 2.112 s; memory 896e-12 s; plus 1 s launch.
  EXPECT_DOUBLE_EQ(estimator.Estimate(graph, CandidatePartition(fused, "a", "a", "r")).seconds(), 3.112);
  EXPECT_TRUE(estimator.Estimate(graph, CandidatePartition(fused, "b", "b", "r")).IsInvalid());
  EXPECT_TRUE(estimator.Estimate(graph, CandidatePartition(fused, "c", "c", "r")).IsInvalid());
  // The spec's name plays no part: the backend's table does.
  EXPECT_DOUBLE_EQ(estimator.Estimate(graph, CandidatePartition(fused, "a2", "a", "r")).seconds(), 3.112);
}

TEST(AnalyticCostEstimatorTest, PreparedTablesGiveTheSameCostsAndOnlyForTheirGraph) {
  auto dense_relu = [](int64_t rows) {
    Var x = MakeVar("x", testing::F32({rows, 8}));
    Var w = MakeVar("w", testing::F32({16, 8}));
    return MakeFunction({x, w}, CallOp("nn.relu", {CallOp("nn.dense", {x, w})}));
  };
  const Function small = dense_relu(4);
  const Function large = dense_relu(8);
  const DataflowGraph small_graph = collage_testing::GraphOf(small);
  const DataflowGraph large_graph = collage_testing::GraphOf(large);
  BackendPerformance slow_compute{.peak_flops = 1000, .memory_bandwidth = 1e12, .launch_overhead = 1,
                                  .default_efficiency = 1.0, .op_efficiency = {{"nn.dense", 0.5}}};
  BackendPerformance cannot_dense{.peak_flops = 1000, .memory_bandwidth = 1e12, .launch_overhead = 1,
                                  .default_efficiency = 1.0, .op_efficiency = {{"nn.dense", 0.0}}};
  AnalyticCostEstimator estimator({{"a", slow_compute}, {"b", cannot_dense}});
  auto fused_on = [](const DataflowGraph& graph, const std::string& backend) {
    return CandidatePartition(SubGraph(graph, IndexSet(graph.size(), {2, 3})), backend, backend, "r");
  };
  auto relu_on = [](const DataflowGraph& graph) {
    return CandidatePartition(SubGraph(graph, IndexSet(graph.size(), {3})), "a", "a", "r");
  };
  const std::vector<CandidatePartition> small_candidates = {fused_on(small_graph, "a"), fused_on(small_graph, "b"),
                                                            relu_on(small_graph)};
  std::vector<Cost> unprepared;
  for (const CandidatePartition& candidate : small_candidates) {
    unprepared.push_back(estimator.Estimate(small_graph, candidate));
  }
  estimator.Prepare(small_graph, small_candidates);
  for (size_t i = 0; i < small_candidates.size(); ++i) {
    EXPECT_EQ(estimator.Estimate(small_graph, small_candidates[i]).ToString(), unprepared[i].ToString()) << i;
  }
  EXPECT_DOUBLE_EQ(estimator.Estimate(small_graph, small_candidates[0]).seconds(), 3.112);
  // Another graph of the same size is costed from its own types, not the prepared table:
  // dense 2 * 8*16 * 8 = 2048 FLOPs at 500/s, relu 128 at 1000/s, plus 1 s launch.
  EXPECT_DOUBLE_EQ(estimator.Estimate(large_graph, fused_on(large_graph, "a")).seconds(), 5.224);
}

}  // namespace
}  // namespace collage
