// Order statistics of timing samples: quantiles and the median/p10/p90 summary that
// measurements and benchmarks report.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
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

// The standard error of the median of `samples` relative to the median, with the spread taken
// from the interquartile range (robust to a few outliers): for a normal distribution the
// standard deviation is IQR / 1.349 and the median's standard error 1.2533 sigma / sqrt(n).
// Infinite for fewer than 2 samples or a median of 0.
inline double RelativeStandardErrorOfMedian(const std::vector<double>& samples) {
  const double median = Quantile(samples, 0.5);
  if (samples.size() < 2 || !(median > 0)) return std::numeric_limits<double>::infinity();
  const double sigma = (Quantile(samples, 0.75) - Quantile(samples, 0.25)) / 1.349;
  return 1.2533 * sigma / std::sqrt(static_cast<double>(samples.size())) / median;
}

}  // namespace collage
