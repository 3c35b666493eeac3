// `--precision auto`: after the fp32 placement, the search runs again with the reduced-precision
// variants of the backends' candidates (collage/partition_rule.h), their quantization ranges
// calibrated on the calibration inputs in the reference interpreter; then the accuracy loop
// (accuracy_loop.h) moves partitions back to f32 until the plan's error against its own all-f32
// form, on the calibration inputs, is within the tolerance (each partition's contribution
// measured by reducing it alone); then the plan's error is measured on a second, disjoint set
// of seeded random inputs, and its latency against the fp32 plan's, interleaved. The result is
// the reduced plan only when it is within the tolerance and measured faster; otherwise the fp32
// plan, saying why.
#pragma once

#include <string>
#include <vector>

#include "collage/partitioner.h"
#include "pipeline/accuracy_loop.h"
#include "pipeline/plan_file.h"
#include "pipeline/precision_request.h"
#include "support/value.h"

namespace collage {

struct ModelPlacement;
struct PartitionRequest;

// What the accuracy loop did and what was decided.
struct PrecisionOutcome {
  enum class Decision {
    kReduced,          // the reduced plan is kept
    kNothingReduced,   // the search chose no reduced-precision partition
    kAllF32Needed,     // every reduced partition had to go back to f32
    kNotFaster,        // within the tolerance but not measured faster than the fp32 plan
  };
  struct Partition {
    std::string symbol;
    double seconds_saved = 0;  // estimated: its f32 cost minus its reduced cost
    double error_alone = 0;    // the plan's error with it alone reduced
    bool moved_back = false;
    double error_before = 0;   // when moved back: the plan's error that made it move
  };
  Decision decision = Decision::kNothingReduced;
  PrecisionRequest request;
  size_t calibration_sets = 0;
  size_t check_sets = 0;
  std::vector<Partition> partitions;  // the search's reduced partitions, in plan order
  double calibration_error = 0;       // of the reduced plan after the loop
  double check_error = 0;             // of the reduced plan on the disjoint inputs
  double reduced_ms = 0;              // measured, interleaved with the fp32 plan (0: not measured)
  double fp32_ms = 0;
  Plan fp32_plan;

  // A few lines: the reduced partitions, what went back to f32 and why, the errors and the
  // decision.
  std::string Summary() const;
};

// The calibration argument sets of `main`: the request's .npz files, or
// kDefaultCalibrationSets seeded random sets. Throws Error naming a file that does not fit.
std::vector<std::vector<Value>> CalibrationInputs(const Function& main, const PrecisionRequest& request);
// Seeded random argument sets whose seeds no default calibration set uses.
std::vector<std::vector<Value>> CheckInputs(const Function& main, size_t count = kDefaultCalibrationSets);

// Runs the precision stage over `placement` (the fp32 placement of `model`, which it replaces
// when the reduced plan is kept). Only @main is offered reduced precisions.
void ChoosePrecisions(const Module& model, const PartitionRequest& request, const std::vector<PartitionSpec>& specs,
                      CostEstimator& estimator, const PartitionOptions& options, ModelPlacement& placement);

}  // namespace collage
