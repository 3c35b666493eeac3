// Small timing and statistics helpers for the benchmarks: wall-clock milliseconds of a call
// and order statistics (median, percentiles) of a sample of timings.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace collage::bench {

// Wall-clock milliseconds that `run()` takes.
template <typename Callable>
double TimeMilliseconds(Callable&& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The q-th quantile (0 <= q <= 1) of `samples`, linearly interpolated; NaN when empty.
inline double Quantile(std::vector<double> samples, double q) {
  if (samples.empty()) return std::nan("");
  std::sort(samples.begin(), samples.end());
  const double position = q * static_cast<double>(samples.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, samples.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return samples[below] + fraction * (samples[above] - samples[below]);
}

struct LatencySummary {
  double median = std::nan("");
  double p10 = std::nan("");
  double p90 = std::nan("");
};

// The median and the 10th / 90th percentiles of timings in any one unit.
inline LatencySummary Summarize(const std::vector<double>& samples) {
  return {Quantile(samples, 0.5), Quantile(samples, 0.1), Quantile(samples, 0.9)};
}

}  // namespace collage::bench
