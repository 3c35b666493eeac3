#include "tuning/measurement.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "backend/boundary_layout.h"
#include "interpreter/interpreter.h"
#include "ir/type_inference.h"
#include "runtime/invoke_executable.h"
#include "support/error.h"
#include "support/layout_conversion.h"
#include "support/statistics.h"

namespace collage {

namespace {

// The cool-down of MeasurementOptions; each call writes a different byte so no write is idle.
void CoolDown(const MeasurementOptions& options) {
  if (options.cool_down_bytes > 0) {
    thread_local std::vector<unsigned char> scratch;
    thread_local unsigned char fill = 0;
    scratch.resize(options.cool_down_bytes);
    std::fill(scratch.begin(), scratch.end(), ++fill);
  }
  if (options.cool_down_seconds > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(options.cool_down_seconds));
  }
}

}  // namespace

void SetInModelCoolDown(MeasurementOptions& options) {
  const long l2_bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  options.cool_down_bytes = 2 * (l2_bytes > 0 ? static_cast<size_t>(l2_bytes) : size_t{1} << 20);
  options.cool_down_seconds = 100e-6;
}

std::string MeasurementMethod(const MeasurementOptions& options) {
  if (!options.cools_down()) return "";
  return "cool-down " + std::to_string(options.cool_down_bytes) + "B " +
         std::to_string(std::lround(options.cool_down_seconds * 1e6)) + "us";
}

Measurement MeasureRepeatedly(const std::function<void()>& run, const MeasurementOptions& options) {
  Check(options.min_runs >= 1 && options.max_runs >= options.min_runs,
        "measurement: expected 1 <= min_runs <= max_runs");
  Check(options.percentile >= 0 && options.percentile <= 1, "measurement: the percentile must lie in [0, 1]");
  Check(options.target_relative_error >= 0, "measurement: the target relative error must not be negative");
  Check(options.dominated_above_seconds >= 0, "measurement: the dominance threshold must not be negative");
  Check(options.cool_down_seconds >= 0 && options.cool_down_seconds <= 1,
        "measurement: the cool-down sleep must lie in [0, 1] s");
  // A run that alone outlasts the whole budget (an unoptimized implementation, a huge partition)
  // ends the warm-up, and a few timed runs of it are enough: its time is long enough to average
  // out the machine's short hiccups, and spending seconds on it would dominate a tuning.
  constexpr int kMinRunsWhenLong = 2;
  // Seconds of one run after its cool-down.
  const auto cool_down_and_time = [&] {
    CoolDown(options);
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  int min_runs = options.min_runs;
  for (int i = 0; i < options.warmup_runs; ++i) {
    const double seconds = cool_down_and_time();
    if (options.dominated_above_seconds > 0 && seconds > options.dominated_above_seconds) {
      return Measurement{seconds, seconds, seconds, seconds, 1, true};
    }
    if (options.budget_seconds > 0 && seconds > options.budget_seconds) {
      min_runs = std::min(min_runs, kMinRunsWhenLong);
      break;
    }
  }
  std::vector<double> samples;
  double total = 0;
  const auto precise_enough = [&] {
    return options.target_relative_error > 0 &&
           RelativeStandardErrorOfMedian(samples) <= options.target_relative_error;
  };
  while (static_cast<int>(samples.size()) < options.max_runs &&
         (static_cast<int>(samples.size()) < min_runs || (total < options.budget_seconds && !precise_enough()))) {
    const double seconds = cool_down_and_time();
    samples.push_back(seconds);
    total += seconds;
  }
  const LatencySummary summary = Summarize(samples);
  return Measurement{Quantile(samples, options.percentile), summary.median, summary.p10, summary.p90,
                     static_cast<int>(samples.size())};
}

Measurement MeasurePartition(const Backend& backend, const Function& function, const CompileOptions& compile_options,
                             const MeasurementOptions& options, uint64_t seed) {
  if (!function->body->checked_type()) InferType(function);
  const std::unique_ptr<Executable> executable = backend.Compile(function, compile_options);
  // Random values converted into the parameters' layout, so that a channel-blocked buffer's
  // padding holds zeros as it would in a run.
  const Layout layout = BoundaryLayoutsOf(function).parameters;
  std::vector<Tensor> inputs;
  for (const Value& argument : RandomArguments(function, seed)) {
    const Tensor& tensor = argument.tensor();
    inputs.push_back(ConvertedLayout(tensor, Layout::kPlain, layout, tensor.shape()));
  }
  std::vector<Tensor> outputs = AllocateResults(function);
  return MeasureRepeatedly([&] { executable->Run(inputs, outputs); }, options);
}

}  // namespace collage
