// Small timing helpers for the benchmarks: wall-clock milliseconds of a call, and the order
// statistics of support/statistics.h.
#pragma once

#include <chrono>

#include "support/statistics.h"

namespace collage::bench {

// Wall-clock milliseconds that `run()` takes.
template <typename Callable>
double TimeMilliseconds(Callable&& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

using collage::LatencySummary;
using collage::Quantile;
using collage::Summarize;

}  // namespace collage::bench
