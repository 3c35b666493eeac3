// Gives a placed model's reduced-precision partitions the calibrated ranges of their inputs.
//
// After outlining, each partition is a call to a Primitive function; one whose Precision is not
// f32 needs ActivationRanges (backend/precision.h) for its parameters. The model runs in the
// reference interpreter (partitions included, in f32) on the calibration inputs, and each such
// call's arguments' ranges, in parameter order, become its function's attribute.
#pragma once

#include <vector>

#include "ir/expr.h"
#include "support/value.h"

namespace collage {

// `function` (an outlined model) with ActivationRanges set on every reduced-precision partition
// it calls; `percentile` as for CalibrateRanges. Throws Error naming the partition when an
// argument has no f32 range (a tuple or another element type).
Function AttachActivationRanges(const Function& function, const std::vector<std::vector<Value>>& calibration_inputs,
                                double percentile = 100);

}  // namespace collage
