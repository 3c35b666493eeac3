// How the process's OpenMP threads (GNU libgomp) wait for work, for every backend whose
// parallel loops run on them (oneDNN's primitives, the native backend's kernels, XNNPACK's
// loops).
#pragma once

#include <vector>

#include "backend/backend.h"

namespace collage {

// The load-time settings under which libgomp's idle threads poll about 5,000 rounds (about
// 0.1 ms here) and then sleep. By default they poll 300,000 rounds, several milliseconds, on
// cores the next partition's backend may need; fully passive threads sleep after every loop,
// and waking them costs each primitive of a partition a futex round trip (bert's and gpt2's
// oneDNN placements ran 8-15 % slower so). When the user has set OMP_WAIT_POLICY, only that
// policy is given: GOMP_SPINCOUNT would override the user's choice.
std::vector<LoadTimeSetting> OpenMpWaitSettings();

}  // namespace collage
