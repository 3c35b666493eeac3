// The accuracy loop of reduced-precision placement: after the search has chosen the fastest
// plan over all precision variants, partitions go back to f32 until the plan's error on the
// calibration inputs is within the user's tolerance.
//
// Each step moves back the reduced partition that costs the most accuracy per second it saves:
// the largest error_alone / seconds_saved, where error_alone is the metric with that partition
// alone reduced (the rest f32) and seconds_saved its f32 cost minus its reduced cost; then the
// whole plan is measured again. The loop ends as soon as the error is within the tolerance, or
// when every partition is back at f32 (the result then says whether even that is within it).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace collage {

struct ReducedPartitionCost {
  std::string name;
  double seconds_saved = 0;
  double error_alone = 0;
};

struct AccuracyLoopStep {
  size_t partition = 0;     // moved back to f32
  double error_before = 0;  // the plan's error that made it move
};

struct AccuracyLoopResult {
  std::vector<bool> reduced;  // per partition: still reduced
  double error = 0;           // of the final plan
  std::vector<AccuracyLoopStep> moved_back;  // in order
  bool within_tolerance = true;
};

// `measure(reduced)` is the plan's error on the calibration inputs with the partitions flagged
// in `reduced` at their reduced precision and the others at f32.
AccuracyLoopResult RunAccuracyLoop(const std::vector<ReducedPartitionCost>& partitions, double tolerance,
                                   const std::function<double(const std::vector<bool>& reduced)>& measure);

}  // namespace collage
