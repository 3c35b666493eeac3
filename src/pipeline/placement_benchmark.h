// The comparison `collage bench` makes after tuning: the end-to-end latency of single:<b> for
// every listed backend (b where it can, the universal fallback elsewhere), greedy (classic BYOC
// in the listed priority order), collage (the op-level plan; with --precision auto, the plan the
// precision stage chose), after the graph-level stage collage-graph, and with --precision auto
// collage-fp32 (the fp32 plan), timed interleaved in one process (tuning/interleaved_benchmark.h), and the
// ratios and additive errors drawn from those medians.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pipeline/model_partitioner.h"
#include "tuning/interleaved_benchmark.h"

namespace collage {

// The variants, in the order they are reported: single:<b> per backend, greedy, collage,
// collage-graph when `placement` ran the graph stage and collage-fp32 when it ran the precision
// stage.
std::vector<BenchmarkVariant> PlacementVariants(const Module& model, const ModelPlacement& placement,
                                                const std::vector<std::string>& backends);

struct PlacementComparison {
  std::vector<VariantLatency> latencies;  // per variant, in PlacementVariants' order
  double collage_ms = 0;
  double greedy_ms = 0;
  std::string best_single;  // "single:onednn": the fastest single-backend variant
  double best_single_ms = 0;
  // (measured - estimated) / measured of the op-level plan and of the graph stage's choice.
  double additive_error = 0;
  std::optional<double> graph_ms;
  std::optional<double> graph_additive_error;
  std::optional<double> fp32_ms;  // --precision auto: the fp32 plan's (collage is the chosen plan)
};

// Medians, the best single backend and the additive errors of the timed variants.
PlacementComparison ComparePlacements(std::vector<VariantLatency> latencies, const ModelPlacement& placement,
                                      const std::vector<std::string>& backends);

// The latency of the variant named `name`; throws Error when there is none.
const VariantLatency& FindVariant(const std::vector<VariantLatency>& latencies, const std::string& name);

}  // namespace collage
