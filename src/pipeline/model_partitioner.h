// Places a whole model with the Collage partitioner, as `collage partition` and `collage
// bench` do: phase 1 from the registry (one spec per listed backend from its declaration,
// plus the host), the chosen cost model, then Partition per function of the module.
//
// Cost models: analytic (each backend's roofline, no measurement) and measured (every
// candidate timed by a worker process in each boundary layout it offers, costs kept in the cost
// database, and a transition penalty of measured layout conversions).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collage/cost_model.h"
#include "collage/graph_search.h"
#include "collage/partitioner.h"
#include "collage/search_level.h"
#include "pipeline/plan_file.h"
#include "pipeline/precision_placement.h"
#include "pipeline/precision_request.h"
#include "runtime/executable_cache.h"
#include "tuning/measured_cost_estimator.h"
#include "tuning/hand_over_cost.h"
#include "tuning/transition_penalty.h"

namespace collage {

struct PartitionRequest {
  std::string model_path;
  std::vector<std::string> backends;
  CostModel cost_model = CostModel::kAnalytic;
  std::string database_path;            // measured only; "": CostDatabase::DefaultPath()
  int threads = 1;
  bool show_progress = true;  // tuning's progress bar on stderr when it is a terminal
  std::function<void(const TuningProgress&)> on_progress;  // tuning's progress, for a caller's display
  // kGraph: the evolutionary graph-level stage after the op-level search (measured costs
  // only), offering regions to the listed backends that optimize across ops.
  SearchLevel search = SearchLevel::kOp;
  double graph_budget_seconds = 120;  // wall time of the evolutionary search, per function
  uint64_t seed = 0;                  // of the random inputs and of the evolutionary search
  // auto (measured op-level search only): the precision stage after the fp32 placement
  // (precision_placement.h).
  PrecisionRequest precision;
};

struct ModelPlacement {
  Plan plan;
  // Per function of the module, in module order: its name, its original function and the
  // partitioner's result (with the explanation).
  struct FunctionPlacement {
    std::string name;
    Function original;
    PartitionResult result;
  };
  std::vector<FunctionPlacement> functions;
  // The estimator the search used (its costs are cached: asking again is free) and, for
  // measured costs, the database it reads and writes.
  std::shared_ptr<CostDatabase> database;
  std::shared_ptr<CostEstimator> estimator;
  std::string database_path;              // measured only
  std::optional<TuningStats> tuning;      // measured only
  std::vector<InvalidCandidate> invalid;  // measured only
  std::shared_ptr<MeasuredConversionCosts> conversion_costs;  // measured only: the transition penalty's
  std::shared_ptr<MeasuredHandOverCosts> hand_over_costs;     // measured only: the hand-over penalty's
  // Measured only: the hand-over cost between every ordered pair of the request's backends.
  struct HandOver {
    std::string producer;
    std::string consumer;
    double seconds = 0;
  };
  std::vector<HandOver> hand_overs;
  // --search graph: the op-level plan (`plan` is the final choice), what the graph stage did per
  // function, and the final interleaved measurement (milliseconds) of the op-level plan and the
  // graph stage's finalists (best first by search fitness) that decided.
  struct GraphStage {
    Plan op_level_plan;
    std::vector<std::string> descriptions;
    double op_level_ms = 0;
    std::vector<double> finalist_ms;
    std::vector<FinalistOrigin> finalist_origins;  // per finalist (of the first function)
    std::vector<Plan> finalist_plans;              // per finalist: the whole model's plan
    size_t kept_finalist = 0;  // which replaced the op-level plan (from 1); 0: none did

    bool replaced() const { return kept_finalist > 0; }
    // "final interleaved measurement: op-level 12.3 ms, finalist 1 (all onednn) 10.1 ms, ...:
    // finalist 1 is kept", then one line per measured plan with its partitions in order
    // ("  finalist 1 (all onednn): onednn [plain>nhwc] 40 ops, native 1 op").
    std::string FinalDecision() const;
  };
  std::optional<GraphStage> graph_stage;
  // --precision auto: what the precision stage did (`plan` is its choice; the fp32 plan is in it).
  std::optional<PrecisionOutcome> precision;
  double seconds = 0;                     // wall time, tuning included

  // One line per partition ("  onednn_0  onednn  3 ops (conv2d+relu)  0.1234 ms") and the
  // total, then the explanation of each function.
  std::string Listing() const;
};

// Throws UsageError unless `backends` has one that the graph-level stage can offer regions to
// (a backend that optimizes across the ops of a partition).
void CheckGraphStageBackends(const std::vector<std::string>& backends);

// Throws Error for a model the partitioner cannot place (naming the node and the backends).
ModelPlacement PlaceModel(const Module& model, const PartitionRequest& request);

// A plan over `results` (one per function of `model`, in order), with `like`'s header and the
// partitions' estimated costs.
Plan PlanOfResults(const Plan& like, const Module& model, const std::vector<PartitionResult>& results,
                   CostEstimator& estimator);

// Median end-to-end milliseconds of a partitioned module over `rounds` runs after a warm-up
// run, as `collage run --plan` would run it; with a cache, reusing the partitions compiled before.
double MeasureModelMilliseconds(const Module& partitioned, const PartitionRequest& request, int rounds,
                                ExecutableCache* cache = nullptr);

}  // namespace collage
