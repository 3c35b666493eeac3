// Small timing helpers for the benchmarks: wall-clock milliseconds of a call, two variants
// timed interleaved, and the order statistics of support/statistics.h.
#pragma once

#include <chrono>
#include <utility>
#include <vector>

#include "support/statistics.h"

namespace collage::bench {

// Wall-clock milliseconds that `run()` takes.
template <typename Callable>
double TimeMilliseconds(Callable&& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Milliseconds of `runs` calls of each of `first` and `second`, interleaved with the order
// alternating per run (so that neither always finds the caches warmed by the other), after
// `warm_up` untimed rounds; returns the two lists of times.
template <typename First, typename Second>
std::pair<std::vector<double>, std::vector<double>> TimeInterleaved(int runs, int warm_up, First&& first,
                                                                      Second&& second) {
  std::pair<std::vector<double>, std::vector<double>> times;
  for (int run = 0; run < warm_up + runs; ++run) {
    const bool first_first = run % 2 == 0;
    const double one = first_first ? TimeMilliseconds(first) : TimeMilliseconds(second);
    const double other = first_first ? TimeMilliseconds(second) : TimeMilliseconds(first);
    if (run < warm_up) continue;
    times.first.push_back(first_first ? one : other);
    times.second.push_back(first_first ? other : one);
  }
  return times;
}

using collage::LatencySummary;
using collage::Quantile;
using collage::Summarize;

}  // namespace collage::bench
