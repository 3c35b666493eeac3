// `collage bench MODEL --backends B1,B2,... [--db PATH] [--repeat N] [--json OUT.json]
// [--threads N] [--seed S]` (DESIGN §12): tunes the Collage placement with measured costs,
// then measures in one process, interleaved, the end-to-end latency of single:<b> for every
// listed backend (b where it can, the universal fallback elsewhere), greedy (classic BYOC in
// the listed priority order) and collage; prints the medians and the speed-ups, and writes
// them as JSON.
#include <iomanip>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "output_paths.h"
#include "partition_request_arguments.h"
#include "pipeline/model_loader.h"
#include "pipeline/model_partitioner.h"
#include "pipeline/placement_benchmark.h"
#include "pipeline/text_file.h"
#include "shape_option.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "bench";

void PrintTable(const std::vector<VariantLatency>& latencies, double collage_ms) {
  std::cout << std::left << std::setw(22) << "variant" << std::right << std::setw(12) << "median ms" << std::setw(10)
            << "p10 ms" << std::setw(10) << "p90 ms" << std::setw(14) << "collage gain" << "\n";
  for (const VariantLatency& latency : latencies) {
    std::cout << std::left << std::setw(22) << latency.name << std::right << std::fixed << std::setprecision(3)
              << std::setw(12) << latency.milliseconds.median << std::setw(10) << latency.milliseconds.p10
              << std::setw(10) << latency.milliseconds.p90 << std::setw(13) << std::setprecision(2)
              << latency.milliseconds.median / collage_ms << "x";
    if (!latency.same_as.empty()) std::cout << "  (same placement as " << latency.same_as << ", timed once)";
    std::cout << "\n";
  }
  std::cout.unsetf(std::ios::fixed);
}

}  // namespace

CommandSpec BenchCommandSpec() {
  return {kCommand,
          "MODEL",
          "tune the model, then measure single-backend, greedy and Collage placements end to end",
          [] {
            std::vector<OptionSpec> options = PartitionRequestOptionSpecs();
            options.push_back({{"--repeat"}, "N", "timed runs of every variant, interleaved (default: 10)"});
            options.push_back({{"--json"}, "OUT.json", "also write the results as JSON"});
            return options;
          }()};
}

int RunBenchCommand(const ParsedArguments& arguments) {
  const PartitionRequest request = ReadPartitionRequest(arguments, CostModel::kMeasured, kCommand);
  RefuseOutputsOverInputs({{"--json", arguments.Value("--json").value_or("")}}, PartitionRequestInputs(request));
  BenchmarkOptions options;
  options.threads = request.threads;
  options.rounds = static_cast<int>(arguments.UnsignedValue("--repeat", 10, 1, 100000));
  options.seed = request.seed;

  const Module model = LoadModelForPlacement(arguments.positional, ReadShapeBindings(arguments, kCommand));
  const ModelPlacement placement = PlaceModel(model, request);
  std::cout << "tuning: " << placement.tuning->ToString() << "\n";

  const std::vector<BenchmarkVariant> variants = PlacementVariants(model, placement, request.backends);
  const Plan& op_level_plan = placement.graph_stage ? placement.graph_stage->op_level_plan : placement.plan;
  if (placement.graph_stage) {
    std::cout << "graph-level stage:\n";
    for (const std::string& description : placement.graph_stage->descriptions) std::cout << description << "\n";
    std::cout << placement.graph_stage->FinalDecision() << "\n";
  }
  std::cout << "measuring " << variants.size() << " variants: " << options.rounds << " interleaved rounds after "
            << options.warmup_runs << " warm-up runs each, " << options.threads << " threads\n";
  const PlacementComparison comparison = ComparePlacements(
      BenchmarkInterleaved(variants, BackendRegistry::Global(), options), placement, request.backends);
  const std::vector<VariantLatency>& latencies = comparison.latencies;
  const double collage_ms = comparison.collage_ms;
  PrintTable(latencies, collage_ms);
  std::cout << std::setprecision(3) << "collage vs best single (" << comparison.best_single
            << "): " << comparison.best_single_ms / collage_ms << "x, vs greedy: " << comparison.greedy_ms / collage_ms
            << "x\n"
            << "collage: " << op_level_plan.partitions.size() << " partitions, estimated " << op_level_plan.total_ms
            << " ms, measured " << collage_ms << " ms (additive error " << std::showpos
            << comparison.additive_error * 100 << std::noshowpos << "%)\n";
  if (placement.precision) {
    std::cout << placement.precision->Summary();
    std::cout << "collage (precision auto) vs collage-fp32: " << *comparison.fp32_ms / collage_ms << "x";
    if (HasReducedPrecision(placement.plan)) {
      std::cout << "; " << AccuracyMetricName(placement.plan.precision.metric) << " on the disjoint inputs "
                << placement.plan.precision.check_error;
    }
    std::cout << "\n";
  }
  if (comparison.graph_ms) {
    std::cout << "collage-graph: " << placement.plan.partitions.size() << " partitions, estimated "
              << placement.plan.total_ms << " ms, measured " << *comparison.graph_ms << " ms (additive error "
              << std::showpos << *comparison.graph_additive_error * 100 << std::noshowpos << "%)\n";
  }

  if (const std::optional<std::string> json_path = arguments.Value("--json")) {
    // Keys in insertion order; non-finite numbers are written as null (JSON has no NaN).
    nlohmann::ordered_json latency_ms = nlohmann::ordered_json::object();
    nlohmann::ordered_json spread_ms = nlohmann::ordered_json::object();
    nlohmann::ordered_json same_placement = nlohmann::ordered_json::object();
    for (const VariantLatency& latency : latencies) {
      if (!latency.same_as.empty()) same_placement[latency.name] = latency.same_as;
      latency_ms[latency.name] = latency.milliseconds.median;
      spread_ms[latency.name] = {{"p10", latency.milliseconds.p10}, {"p90", latency.milliseconds.p90}};
    }
    nlohmann::ordered_json speedup = {{"collage_vs_best_single", comparison.best_single_ms / collage_ms},
                                      {"collage_vs_greedy", comparison.greedy_ms / collage_ms}};
    if (comparison.graph_ms) speedup["collage_graph_vs_collage"] = collage_ms / *comparison.graph_ms;
    nlohmann::ordered_json json = {
        {"model", arguments.positional},
        {"threads", options.threads},
        {"latency_ms", std::move(latency_ms)},
        {"speedup", std::move(speedup)},
        {"tuning_s", placement.seconds},
        {"partitions", op_level_plan.partitions.size()},
        {"repeat", options.rounds},
        {"best_single", comparison.best_single},
        {"spread_ms", std::move(spread_ms)},
        {"same_placement", std::move(same_placement)},
        {"collage_estimated_ms", op_level_plan.total_ms},
        {"additive_error", comparison.additive_error},
        {"measured_candidates", placement.tuning->measured},
        {"cost_database", placement.database_path},
    };
    if (placement.precision) {
      json["precision"] = {{"tolerance", placement.precision->request.tolerance},
                           {"metric", AccuracyMetricName(placement.precision->request.metric)},
                           {"reduced_partitions", ReducedPartitionCount(placement.plan)},
                           {"calibration_error", placement.plan.precision.calibration_error},
                           {"check_error", placement.plan.precision.check_error},
                           {"collage_vs_fp32", *comparison.fp32_ms / collage_ms}};
    }
    if (comparison.graph_additive_error) {
      json["collage_graph_estimated_ms"] = placement.plan.total_ms;
      json["collage_graph_additive_error"] = *comparison.graph_additive_error;
    }
    // Bytes of a path that are not UTF-8 are replaced rather than refused.
    WriteTextFile(*json_path, json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
    std::cout << "results written to " << *json_path << "\n";
  }
  return 0;
}

}  // namespace collage::cli
