#include "pipeline/placement_benchmark.h"

#include <cmath>

#include "backend/backend.h"
#include "runtime/greedy_placement.h"

namespace collage {

std::vector<BenchmarkVariant> PlacementVariants(const Module& model, const ModelPlacement& placement,
                                                const std::vector<std::string>& backends) {
  const BackendRegistry& registry = BackendRegistry::Global();
  std::vector<BenchmarkVariant> variants;
  for (const std::string& backend : backends) {
    variants.push_back({"single:" + backend, PlaceGreedy(model, std::vector<std::string>{backend}, registry)});
  }
  variants.push_back({"greedy", PlaceGreedy(model, backends, registry)});
  const Plan& op_level_plan = placement.graph_stage ? placement.graph_stage->op_level_plan : placement.plan;
  variants.push_back({"collage", PlaceGreedy(op_level_plan.module, backends, registry)});
  if (placement.graph_stage) {
    variants.push_back({"collage-graph", PlaceGreedy(placement.plan.module, backends, registry)});
  }
  if (placement.precision) {
    variants.push_back({"collage-fp32", PlaceGreedy(placement.precision->fp32_plan.module, backends, registry)});
  }
  return variants;
}

const VariantLatency& FindVariant(const std::vector<VariantLatency>& latencies, const std::string& name) {
  for (const VariantLatency& latency : latencies) {
    if (latency.name == name) return latency;
  }
  throw Error("bench: no variant " + name);
}

PlacementComparison ComparePlacements(std::vector<VariantLatency> latencies, const ModelPlacement& placement,
                                      const std::vector<std::string>& backends) {
  PlacementComparison comparison;
  comparison.latencies = std::move(latencies);
  const std::vector<VariantLatency>& timed = comparison.latencies;
  comparison.collage_ms = FindVariant(timed, "collage").milliseconds.median;
  comparison.greedy_ms = FindVariant(timed, "greedy").milliseconds.median;
  comparison.best_single_ms = INFINITY;
  for (const std::string& backend : backends) {
    const double median = FindVariant(timed, "single:" + backend).milliseconds.median;
    if (median < comparison.best_single_ms) {
      comparison.best_single_ms = median;
      comparison.best_single = "single:" + backend;
    }
  }
  const Plan& op_level_plan = placement.graph_stage ? placement.graph_stage->op_level_plan : placement.plan;
  comparison.additive_error = (comparison.collage_ms - op_level_plan.total_ms) / comparison.collage_ms;
  if (placement.graph_stage) {
    comparison.graph_ms = FindVariant(timed, "collage-graph").milliseconds.median;
    comparison.graph_additive_error = (*comparison.graph_ms - placement.plan.total_ms) / *comparison.graph_ms;
  }
  if (placement.precision) comparison.fp32_ms = FindVariant(timed, "collage-fp32").milliseconds.median;
  return comparison;
}

}  // namespace collage
