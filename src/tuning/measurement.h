// Timing one compiled partition (DESIGN §11): warm-up runs, then repeats until a time or
// count budget, summarized as the median, a spread (p10-p90) and the configured percentile,
// which becomes the candidate's cost (above the median for noisy, lightweight kernels).
#pragma once

#include <cstdint>
#include <functional>

#include "backend/backend.h"

namespace collage {

struct MeasurementOptions {
  int warmup_runs = 2;
  int min_runs = 5;
  int max_runs = 100;
  // Timed runs stop once min_runs are done and they took this long together, or at max_runs.
  double budget_seconds = 0.2;
  // The quantile of the run times reported as `seconds` (0.5: the median).
  double percentile = 0.5;
};

struct Measurement {
  double seconds = 0;  // at options.percentile
  double median_seconds = 0;
  double p10_seconds = 0;
  double p90_seconds = 0;
  int runs = 0;
};

// Times `run` as the options say.
Measurement MeasureRepeatedly(const std::function<void()>& run, const MeasurementOptions& options);

// Compiles `function` (a partition function) with `backend` and times its executable on
// seeded random inputs with preallocated outputs. Throws Error when it cannot be compiled
// or run.
Measurement MeasurePartition(const Backend& backend, const Function& function, const CompileOptions& compile_options,
                             const MeasurementOptions& options, uint64_t seed);

}  // namespace collage
