#include "collage/benchmark.h"

#include "api/compiled_model_state.h"
#include "api/error_translation.h"
#include "backend/backend.h"
#include "pipeline/placement_benchmark.h"

namespace collage::api {
namespace {

const ModelPlacement& SearchOf(const CompiledModel& compiled) {
  const std::optional<ModelPlacement>& placement = compiled.state().placement;
  if (!placement) {
    throw UsageError("a benchmark compares the placement search's plan with the placements it competes with: "
                     "compile the model to benchmark it");
  }
  return *placement;
}

std::vector<BenchmarkVariant> VariantsOf(const CompiledModel& compiled) {
  const ModelPlacement& placement = SearchOf(compiled);
  return PlacementVariants(compiled.state().optimized, placement, placement.plan.backends);
}

}  // namespace

std::vector<std::string> BenchmarkVariants(const CompiledModel& compiled) {
  std::vector<std::string> names;
  for (const BenchmarkVariant& variant : VariantsOf(compiled)) names.push_back(variant.name);
  return names;
}

BenchmarkResult Benchmark(const CompiledModel& compiled, const BenchmarkOptions& options) {
  const ModelPlacement& placement = SearchOf(compiled);
  collage::BenchmarkOptions library_options;
  library_options.threads = compiled.threads();
  library_options.seed = options.seed;
  library_options.warmup_runs = options.warmup_runs;
  library_options.rounds = options.rounds;
  const PlacementComparison comparison = Translating<BackendError>([&] {
    return ComparePlacements(BenchmarkInterleaved(VariantsOf(compiled), BackendRegistry::Global(), library_options),
                             placement, placement.plan.backends);
  });
  BenchmarkResult result{.variants = {},
                         .collage_ms = comparison.collage_ms,
                         .greedy_ms = comparison.greedy_ms,
                         .best_single = comparison.best_single,
                         .best_single_ms = comparison.best_single_ms,
                         .additive_error = comparison.additive_error,
                         .graph_ms = comparison.graph_ms,
                         .graph_additive_error = comparison.graph_additive_error,
                         .fp32_ms = comparison.fp32_ms,
                         .retaken_rounds = comparison.latencies.empty() ? 0 : comparison.latencies.front().retaken_rounds};
  for (const VariantLatency& latency : comparison.latencies) {
    result.variants.push_back({latency.name, latency.milliseconds.median, latency.milliseconds.p10,
                               latency.milliseconds.p90, latency.same_as});
  }
  return result;
}

}  // namespace collage::api
