// Comparing a compiled model's placement end to end with the placements it competes with, as
// `collage bench` does: single:<backend> for every listed backend (the backend where it can, the
// universal fallback elsewhere), greedy (classic BYOC in the listed priority order), collage (the
// op-level plan; with Precision::kAuto, the plan the precision stage chose), collage-graph after
// the graph stage and collage-fp32 (the fp32 plan) after the precision stage, timed interleaved
// in one process on seeded random inputs, so that the machine's drift hits every variant alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collage/compiled_model.h"

namespace collage::api {

struct BenchmarkOptions {
  int rounds = 10;       // timed runs of every variant, interleaved
  int warmup_runs = 2;   // of every variant, before the timed rounds
  uint64_t seed = 0;     // of the random inputs
};

struct VariantTiming {
  std::string name;  // "single:onednn", "greedy", "collage", ...
  double median_ms = 0;
  double p10_ms = 0;
  double p90_ms = 0;
  std::string same_as;  // the earlier variant with an equal placement, whose timings these are; or ""
};

struct BenchmarkResult {
  std::vector<VariantTiming> variants;  // in BenchmarkVariants' order
  double collage_ms = 0;
  double greedy_ms = 0;
  std::string best_single;  // "single:onednn": the fastest single-backend variant
  double best_single_ms = 0;
  // (measured - estimated) / measured of the op-level plan and of the graph stage's choice.
  double additive_error = 0;
  std::optional<double> graph_ms;
  std::optional<double> graph_additive_error;
  std::optional<double> fp32_ms;  // Precision::kAuto: the fp32 plan's (collage is the chosen plan)
  // Rounds timed again because a speed probe around them said the machine was busy.
  int retaken_rounds = 0;
};

// The names of the variants Benchmark times, in order. The model must come from Compile or Place
// (UsageError otherwise: a loaded plan has no search to compare with).
std::vector<std::string> BenchmarkVariants(const CompiledModel& compiled);

// Times the variants on compiled.threads() threads; a variant that fails to compile or run is a
// BackendError naming it.
BenchmarkResult Benchmark(const CompiledModel& compiled, const BenchmarkOptions& options = {});

}  // namespace collage::api
