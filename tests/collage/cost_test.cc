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

}  // namespace
}  // namespace collage
