// Timing one compiled partition: warm-up runs, then repeats until a time or
// count budget, summarized as the median, a spread (p10-p90) and the configured percentile,
// which becomes the candidate's cost (above the median for noisy, lightweight kernels).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "backend/backend.h"

namespace collage {

struct MeasurementOptions {
  int warmup_runs = 2;
  int min_runs = 5;
  int max_runs = 100;
  // Timed runs stop once min_runs are done and they took this long together, or at max_runs. A
  // warm-up run that alone takes longer than this ends the warm-up and lowers min_runs to 2.
  double budget_seconds = 0.2;
  // Timed runs also stop, once min_runs are done, when the median is known to this relative
  // standard error (RelativeStandardErrorOfMedian); 0: they run to the budget. Steady timings
  // then stop after a few runs; noisy ones still use the budget.
  double target_relative_error = 0;
  // A warm-up run slower than this ends the measurement (0: no limit): that one run is the
  // result, marked dominated. The tuner sets it when another candidate over the same operators
  // is known to be several times faster, so that no precision is paid for on a candidate the
  // search will not choose.
  double dominated_above_seconds = 0;
  // The quantile of the run times reported as `seconds` (0.5: the median).
  double percentile = 0.5;
  // Cool-down before each run (warm-up and timed), so that a partition is timed as it runs
  // inside a model, where other partitions run in between: `cool_down_bytes` of a scratch
  // buffer are written (evicting what the previous run left in the calling core's caches),
  // then the thread sleeps `cool_down_seconds` (the backends' worker threads park). Neither is
  // part of the run times. Both 0: back-to-back runs.
  size_t cool_down_bytes = 0;
  double cool_down_seconds = 0;

  bool cools_down() const { return cool_down_bytes > 0 || cool_down_seconds > 0; }
};

struct Measurement {
  double seconds = 0;  // at options.percentile
  double median_seconds = 0;
  double p10_seconds = 0;
  double p90_seconds = 0;
  int runs = 0;
  bool dominated = false;  // stopped after one warm-up run slower than dominated_above_seconds
};

// Sets the cool-down that makes a partition's isolated timing resemble its time inside a
// model: twice the calling core's L2 cache (from sysconf; 1 MiB when unknown) written, then a
// 100 us sleep (longer than the backends' thread pools spin before they park).
void SetInModelCoolDown(MeasurementOptions& options);

// What, beyond the backend, the device and the thread count, a timing depends on: "" for
// back-to-back runs, else "cool-down <bytes>B <microseconds>us". Part of the cost key.
std::string MeasurementMethod(const MeasurementOptions& options);

// Times `run` as the options say.
Measurement MeasureRepeatedly(const std::function<void()>& run, const MeasurementOptions& options);

// Compiles `function` (a partition function) with `backend` and times its executable on
// seeded random inputs with preallocated outputs. Throws Error when it cannot be compiled
// or run.
Measurement MeasurePartition(const Backend& backend, const Function& function, const CompileOptions& compile_options,
                             const MeasurementOptions& options, uint64_t seed);

}  // namespace collage
