// Runs a function through the executor placed greedily on a priority list of backends, as
// `collage run` and the public API's compiled models do: partitions already in the function keep
// their backends, the listed backends take what they support in order, and the universal
// fallback the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "support/value.h"

namespace collage {

struct GreedyRun {
  Value result;  // of the last run
  // With profiling: the per-partition table of the runs after the warm-up (runtime/profiler.h)
  // and the activation memory planned, with and without reuse.
  std::string profile_table;
  size_t arena_bytes = 0;
  size_t bytes_without_reuse = 0;
};

// Once, or with `repeat` a warm-up run and then `repeat` runs, on `threads` threads. Throws
// Error when a partition cannot be compiled or run, or an argument does not fit its parameter.
GreedyRun RunGreedily(const Function& function, const std::vector<Value>& arguments,
                      const std::vector<std::string>& backends, int threads, std::optional<uint64_t> repeat,
                      bool profile);

}  // namespace collage
