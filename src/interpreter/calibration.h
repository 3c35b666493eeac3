// Calibration: the ranges activations take when the f32 model runs on representative inputs,
// from which reduced-precision partitions take their quantization scales
// (support/quantization.h).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "support/quantization.h"
#include "support/value.h"

namespace collage {

using RangesByNode = std::unordered_map<const ExprNode*, ActivationRange>;

// Runs `function` in the reference interpreter on each argument set of `inputs` and returns, for
// every node of its body (parameters included) whose value is an f32 tensor, its range over all
// of them: min and max, or with `percentile` p < 100 the widest of the per-input (100 - p)-th and
// p-th percentiles.
RangesByNode CalibrateRanges(const Function& function, const std::vector<std::vector<Value>>& inputs,
                             double percentile = 100);

// The default calibration inputs: `count` seeded random argument sets (RandomArguments, seeds
// first_seed, first_seed + 1000, ...).
std::vector<std::vector<Value>> RandomCalibrationInputs(const Function& function, size_t count = 8,
                                                        uint64_t first_seed = 1);

}  // namespace collage
