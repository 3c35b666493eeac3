// End-to-end latency of several placements of one model, measured in one process (what
// `collage bench` reports): each variant is compiled once, warmed up, then timed in rounds that
// run every variant once, in an order that changes from round to round (InterleavedOrder), so
// that drifting machine load spreads over all variants alike and no variant always runs right
// after the same other one, whose cold caches and idle threads it would inherit. Every variant
// runs on the same seeded inputs with the same thread count. Variants with equal modules (structurally, constants by value, once
// the Composite calls of partitions whose backend reads them as labels only are inlined) are
// one placement: it is compiled and timed once, and each of them reports its samples. A round
// during which the machine was busy (the speed probes before and after it both slower than
// 3 times the fastest, machine_speed.h) is taken again once the machine is calm: a burst on a shared
// host made every variant several times slower for a minute, half the rounds of a benchmark.
#pragma once

#include <string>
#include <vector>

#include "backend/backend.h"
#include "ir/module.h"
#include "runtime/executable_cache.h"
#include "support/statistics.h"
#include "tuning/machine_speed.h"

namespace collage {

struct BenchmarkVariant {
  std::string name;  // "single:onednn", "greedy", "collage"
  Module module;     // partitioned: every op call inside a partition for a backend
};

struct BenchmarkOptions {
  int threads = 1;
  uint64_t seed = 0;
  int warmup_runs = 2;
  int rounds = 10;
  // Compiled partitions to reuse and to add to (executable_cache.h); null: compile everything.
  ExecutableCache* cache = nullptr;
  // Timed on `threads` threads before and after each round; empty: no round is taken again.
  std::function<double(int threads)> speed_probe = TimeSpeedProbe;
  // At most this many rounds are taken again, and at most this long is waited for calm, per benchmark.
  int max_retaken_rounds = 10;
  double busy_wait_seconds = 3;
};

struct VariantLatency {
  std::string name;
  LatencySummary milliseconds;
  std::vector<double> samples;  // milliseconds, one per round
  std::string same_as;          // the earlier variant with an equal module, whose samples these are; or ""
  // Rounds of the benchmark taken again because the machine was busy (the same for every variant).
  int retaken_rounds = 0;
};

// The order in which round `round` runs `variants` variants (indices 0..variants-1): the rows of
// a Williams design, in turn, so that within every `variants` rounds (2 x `variants` when odd)
// each variant runs right after each other one equally often.
std::vector<size_t> InterleavedOrder(size_t variants, size_t round);

// Throws Error naming the variant when one cannot be compiled or run.
std::vector<VariantLatency> BenchmarkInterleaved(const std::vector<BenchmarkVariant>& variants,
                                                 const BackendRegistry& registry, const BenchmarkOptions& options);

}  // namespace collage
