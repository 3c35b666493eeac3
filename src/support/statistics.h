// Order statistics of timing samples: quantiles and the median/p10/p90 summary that
// measurements and benchmarks report.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace collage {

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

}  // namespace collage
