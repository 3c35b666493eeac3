// How the measured estimator confirms the few costs a decision rests on
// (CostEstimator::Confirm): the tuner's method with a cool-down that writes twice the last-level
// cache, so that the partition's weights come from memory as they do inside a model whose other
// partitions ran in between, where the tuner's ordinary cool-down (twice the L2) leaves them in
// the L3. Writing that much costs a few milliseconds per run: affordable for the few
// partitions confirmed, not for every candidate of a tuning.
#pragma once

#include "tuning/measurement.h"

namespace collage {

// `measurement` with a cool-down of twice the last-level cache (from sysconf; 32 MiB when
// unknown) and the same sleep.
MeasurementOptions ConfirmationMethod(MeasurementOptions measurement);

}  // namespace collage
