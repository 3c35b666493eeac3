#include "tuning/measurement.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "interpreter/interpreter.h"
#include "ir/type_inference.h"
#include "runtime/invoke_executable.h"
#include "support/error.h"
#include "support/statistics.h"

namespace collage {

Measurement MeasureRepeatedly(const std::function<void()>& run, const MeasurementOptions& options) {
  Check(options.min_runs >= 1 && options.max_runs >= options.min_runs,
        "measurement: expected 1 <= min_runs <= max_runs");
  Check(options.percentile >= 0 && options.percentile <= 1, "measurement: the percentile must lie in [0, 1]");
  for (int i = 0; i < options.warmup_runs; ++i) run();
  std::vector<double> samples;
  double total = 0;
  while (static_cast<int>(samples.size()) < options.max_runs &&
         (static_cast<int>(samples.size()) < options.min_runs || total < options.budget_seconds)) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  std::vector<Tensor> inputs;
  for (const Value& argument : RandomArguments(function, seed)) inputs.push_back(argument.tensor());
  std::vector<Tensor> outputs = AllocateFlattened(function->body->checked_type());
  return MeasureRepeatedly([&] { executable->Run(inputs, outputs); }, options);
}

}  // namespace collage
