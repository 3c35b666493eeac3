// The plan file `collage partition -o PLAN` writes and `collage run MODEL --plan PLAN`
// reads: the partitioned module in the text format (docs/TEXT_FORMAT.md) after a header of
// `//` comment lines, so the whole file also parses as a module:
//
//   // collage plan 4
//   // model: models/mlp.cir 3f2a9c0d1e2b4a5c
//   // backends: onednn,native
//   // cost: analytic
//   // precision: fp32
//   // partition: onednn_0 backend=onednn layout=nhwc precision=f32 ops=3 estimated_ms=0.01234
//   // total_ms: 0.02468
//   // plan hash: 9d0c4e1f2a3b5c6d
//   def @main(...) { ... }
//
// The model line holds the path the plan was made from and ModelHash of that model; a plan
// is only run for a model with the same hash. The plan hash covers every other byte of the
// file (header and module, constants included), so a plan edited by hand is refused; it
// guards against edits and damage, not against someone who recomputes it. A partition's
// layout is the boundary layout of its rank-4 values (its function's BoundaryLayout attribute:
// one layout, or "plain>nchw8c" for parameters in one and results in another), its precision
// its function's Precision attribute (the function also holds its calibrated
// ActivationRanges). A plan of `--precision auto` records the tolerance, the metric and the
// measured errors: "// precision: auto tolerance=0.01 metric=rel-l2 calibration_error=0.0031
// check_error=0.0042" (on the calibration inputs and on the disjoint check inputs). Plans of
// formats 1 to 3, which predate layouts or precisions, are refused with a message naming the
// format.
#pragma once

#include <string>
#include <vector>

#include "collage/cost_model.h"
#include "ir/module.h"
#include "pipeline/precision_request.h"
#include "support/partition_layouts.h"

namespace collage {

struct PlannedPartition {
  std::string symbol;   // the partition function's global_symbol
  std::string backend;
  PartitionLayouts layout;
  DType precision = DType::kF32;
  size_t ops = 0;
  double estimated_ms = 0;
};

// The precision request a plan was made with and, for auto, the accuracy it measured.
struct PlanPrecision {
  PrecisionMode mode = PrecisionMode::kFp32;
  double tolerance = 0;
  AccuracyMetric metric = AccuracyMetric::kRelativeL2;
  double calibration_error = 0;
  double check_error = 0;
};

struct Plan {
  std::string model_path;
  std::string model_hash;
  std::vector<std::string> backends;
  CostModel cost_model = CostModel::kAnalytic;
  PlanPrecision precision;
  std::vector<PlannedPartition> partitions;
  double total_ms = 0;
  Module module;
};

// 16 hex digits of the structural hash of the module, constant values included.
std::string ModelHash(const Module& module);

std::string PlanToText(const Plan& plan);
// How many partitions compute in a reduced precision.
size_t ReducedPartitionCount(const Plan& plan);
bool HasReducedPrecision(const Plan& plan);
// Throws Error naming `path` and the line for a missing or malformed header or a plan hash
// that does not match the text, and the parser's "path:line:column: ..." error for a
// malformed module.
Plan ParsePlan(const std::string& text, const std::string& path);
Plan ReadPlanFile(const std::string& path);

// Throws Error unless the plan's hash is the model's: "plan PLAN was made for input 'x' of
// type T, not U (...)" when the same-named parameter has another type (the model bound to
// other shapes), else "plan PLAN was made for model A (hash X), not for model B (hash Y)".
void CheckPlanMatchesModel(const Plan& plan, const std::string& plan_path, const Module& model,
                           const std::string& model_path);

}  // namespace collage
