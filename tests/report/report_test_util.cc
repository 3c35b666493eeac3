#include "report/report_test_util.h"

#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "collage/collage_test_graphs.h"

namespace collage::report_testing {

PlacementReport MakeUnaryChainReport() {
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    return Cost::Seconds(candidate.backend() == "a" ? 0.5e-3 : 1e-3);
  });
  PartitionOptions options;
  options.explain = true;
  const Function function = collage_testing::MakeUnaryChain();
  const PartitionResult result = Partition(function,
                                           {MakeOpPredicateSpec(collage_testing::Declare("a", {"nn.relu"})),
                                            MakeOpPredicateSpec(collage_testing::Declare("b", {"tanh", "exp"}))},
                                           estimator, options);
  PlacementReport report{.model = "chain.cir", .backends = {"a", "b"}, .threads = 2, .cost_model = CostModel::kAnalytic};
  AddPartitionedFunction(report, function, result, estimator);
  return report;
}

PlacementReport MakeHandWrittenReport() {
  PlacementReport report{.model = "models/<m&\"x'>.cir", .backends = {"<a&b>", "c'\"d"}, .threads = 4,
                         .cost_model = CostModel::kAnalytic};
  ReportPartition first{.symbol = "<a&b>_0", .backend = "<a&b>", .ops = 2, .label = "nn.conv2d+<relu>",
                        .estimated_ms = 0.5, .measured_ms = 1.0, .alternative = {}};
  first.alternative = ReportAlternative{"c'\"d(nn.conv2d) + c'\"d(<relu>)", 0.75, 0.25};
  ReportPartition second{.symbol = "c'\"d_1", .backend = "c'\"d", .ops = 1, .label = "add&more",
                         .estimated_ms = 1.0, .measured_ms = 0.5, .alternative = {}};
  report.partitions = {first, second};
  report.nodes = {{.label = "%in\"put", .type = "Tensor[(1, 3), f32]", .partition = {}, .inputs = {}},
                  {.label = "nn.conv2d", .type = "Tensor[(1, 3), f32]", .partition = 0, .inputs = {0}},
                  {.label = "<relu>", .type = "Tensor[(1, 3), f32]", .partition = 0, .inputs = {1}},
                  {.label = "add&more", .type = "Tensor[(1, 3), f32]", .partition = 1, .inputs = {0, 2}}};
  report.estimated_total_ms = 1.5;
  report.measured_end_to_end_ms = 2.0;
  report.measured_runs = 10;
  return report;
}

}  // namespace collage::report_testing
