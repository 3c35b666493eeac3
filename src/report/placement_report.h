// The data the HTML placement report shows (html_report.h), built from the Collage
// partitioner's results and filled in with measurements.
//
// Invariants: every graph node's `partition`, when set, indexes `partitions`; every node's
// `inputs` index earlier nodes of `nodes` (a node is listed after its producers); a
// partition's symbol is the global_symbol of its function in the partitioned module, which
// is also what the executor's profiler names it. Times are milliseconds.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "collage/cost_model.h"
#include "collage/partitioner.h"
#include "runtime/profiler.h"
#include "support/cpu_features.h"

namespace collage {

// The explain table's cheapest way to cover the same nodes without the chosen partition.
struct ReportAlternative {
  std::string description;  // "onednn(nn.conv2d) + native(nn.relu)"
  double estimated_ms = 0.0;
  double loss_ms = 0.0;  // estimated_ms minus the chosen partition's estimate
};

struct ReportPartition {
  std::string symbol;
  std::string backend;
  std::string layout = "plain";                // its boundary layouts (support/partition_layouts.h)
  std::string precision = "f32";               // what its products compute in (backend/precision.h)
  size_t ops = 0;
  std::string label;                           // the op names, "nn.conv2d+nn.relu"
  std::optional<double> estimated_ms;          // none for a step the partitioner did not plan
  std::optional<double> measured_ms;           // the median over the timed runs
  std::optional<ReportAlternative> alternative;  // none: the only choice

  std::optional<double> MeasuredOverEstimated() const;
};

// One op call or parameter of a partitioned function's dataflow graph.
struct ReportGraphNode {
  std::string label;                 // op name, or the parameter's name
  std::string type;                  // the output type, "Tensor[(1, 64), f32]"
  std::optional<size_t> partition;   // none: a parameter
  std::vector<size_t> inputs;        // producers, through tuples and projections
};

// A candidate partition its backend refused to compile while the costs were measured: an op,
// shape or layout it cannot take, or a slow path it will not run silently (a library's
// reference implementation).
struct ReportRefusal {
  std::string candidate;  // "onednn: multiply (1x144x56x56)"
  std::string reason;     // the backend's one-line error

  // The backend refused a slow path (its reason says "slow path").
  bool IsSlowPath() const;
};

struct PlacementReport {
  std::string model{};
  std::vector<std::string> backends{};
  size_t threads = 0;
  CostModel cost_model = CostModel::kAnalytic;
  std::vector<ReportPartition> partitions{};
  std::vector<ReportGraphNode> nodes{};
  double estimated_total_ms = 0.0;  // the searches' totals, host and transition penalties included
  std::optional<double> measured_end_to_end_ms{};  // the median of whole timed runs
  size_t measured_runs = 0;
  std::vector<ReportRefusal> refused{};  // measured costs only
  // The reduced-precision instruction sets of the CPU that placed it (support/cpu_features.h).
  std::string reduced_precision_isa = DescribeReducedPrecisionIsa(DetectReducedPrecisionIsa());
  // "fp32", or what --precision auto asked and measured ("auto: rel-l2 0.0042 on the calibration
  // inputs, 0.0051 on disjoint inputs, tolerance 0.01").
  std::string precision = "fp32";

  // The sum of the measured partitions' medians; none before measurement.
  std::optional<double> MeasuredPartitionsMs() const;
  // (measured end-to-end - estimated total) / measured end-to-end: how far the additive cost
  // model is off; none before measurement.
  std::optional<double> AdditiveError() const;
};

// Adds the partitions (host candidates left out) and the graph of one function partitioned
// by Partition with options.explain set, estimated by `estimator` (whose costs the
// candidates keep); throws Error when `result` has no explanation. `function` is the
// function as it was given to Partition.
void AddPartitionedFunction(PlacementReport& report, const Function& function, const PartitionResult& result,
                            CostEstimator& estimator);

// Sets each partition's measured median from the profiler row of the same symbol; a row of
// no partition (a host call wrapped by the executor) is added as a partition without estimate.
void AddMeasurements(PlacementReport& report, const std::vector<ProfileRow>& rows, double end_to_end_ms, size_t runs);

}  // namespace collage
