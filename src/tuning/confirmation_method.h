// How the measured estimator confirms the few costs a decision rests on
// (CostEstimator::Confirm): the tuner's method with a cool-down that writes twice the last-level
// cache, so that the partition's weights come from memory as they do inside a model whose other
// partitions ran in between, where the tuner's ordinary cool-down (twice the L2) leaves them in
// the L3. Writing that much costs a few milliseconds per run: affordable for the few
// partitions confirmed, not for every candidate of a tuning.
#pragma once

#include "tuning/measurement.h"

namespace collage {

// The most timed runs of one confirmation timing. Each run's cool-down takes ~3 ms, and the runs
// of a small partition read cold vary too much to stop early at the tuner's 1 % target: without
// a cap, squeezenet1_1's 129 confirmation timings took 131 s, most at 100 runs.
inline constexpr int kMostConfirmationRuns = 10;

// `measurement` with a cool-down of twice the last-level cache (from sysconf; 32 MiB when
// unknown), the same sleep, and at most kMostConfirmationRuns timed runs (min_runs when more).
MeasurementOptions ConfirmationMethod(MeasurementOptions measurement);

}  // namespace collage
