// `collage bench MODEL --backends B1,B2,... [--db PATH] [--repeat N] [--json OUT.json]
// [-o PLAN] [--threads N] [--seed S]`: tunes the Collage placement with measured costs,
// then measures in one process, interleaved, the end-to-end latency of single:<b> for every
// listed backend (b where it can, the universal fallback elsewhere), greedy (classic BYOC in
// the listed priority order) and collage; prints the medians and the speed-ups, writes them as
// JSON, and writes the final placement (the graph stage's when it ran) as a plan for `run --plan`.
#include <iomanip>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "collage/benchmark.h"
#include "commands.h"
#include "output_paths.h"
#include "partition_request_arguments.h"
#include "pipeline/text_file.h"
#include "shape_option.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "bench";

void PrintTable(const std::vector<api::VariantTiming>& latencies, double collage_ms) {
  std::cout << std::left << std::setw(22) << "variant" << std::right << std::setw(12) << "median ms" << std::setw(10)
            << "p10 ms" << std::setw(10) << "p90 ms" << std::setw(14) << "collage gain" << "\n";
  for (const api::VariantTiming& latency : latencies) {
    std::cout << std::left << std::setw(22) << latency.name << std::right << std::fixed << std::setprecision(3)
              << std::setw(12) << latency.median_ms << std::setw(10) << latency.p10_ms << std::setw(10)
              << latency.p90_ms << std::setw(13) << std::setprecision(2) << latency.median_ms / collage_ms << "x";
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
            options.push_back({{"--output", "-o"}, "PLAN",
                               "also write the final placement (the graph stage's with --search graph) as a plan for "
                               "`run --plan`"});
            return options;
          }()};
}

int RunBenchCommand(const ParsedArguments& arguments) {
  const api::CompileOptions compile_options = ReadCompileOptions(arguments, api::CostModel::kMeasured, kCommand);
  RefuseOutputsOverInputs(
      {{"--json", arguments.Value("--json").value_or("")}, {"--output", arguments.Value("--output").value_or("")}},
      CompileInputs(arguments.positional, compile_options));
  api::BenchmarkOptions options;
  options.rounds = static_cast<int>(arguments.UnsignedValue("--repeat", 10, 1, 100000));
  options.seed = compile_options.seed;

  const api::Model model = api::Model::Load(arguments.positional, ReadShapeBindings(arguments, kCommand));
  const api::CompiledModel placed = api::Place(model, compile_options);
  const api::SearchSummary search = *placed.search();
  const api::Placement placement = placed.placement();
  std::cout << "tuning: " << *search.tuning << "\n";
  for (const std::string& comparison : search.whole_regions) std::cout << "whole regions " << comparison << "\n";

  const size_t variant_count = api::BenchmarkVariants(placed).size();
  if (search.graph_stage_decision) {
    std::cout << "graph-level stage:\n";
    for (const std::string& description : search.graph_stage) std::cout << description << "\n";
    std::cout << *search.graph_stage_decision << "\n";
  }
  std::cout << "measuring " << variant_count << " variants: " << options.rounds << " interleaved rounds after "
            << options.warmup_runs << " warm-up runs each, " << placed.threads() << " threads\n";
  const api::BenchmarkResult comparison = api::Benchmark(placed, options);
  const std::vector<api::VariantTiming>& latencies = comparison.variants;
  const double collage_ms = comparison.collage_ms;
  PrintTable(latencies, collage_ms);
  if (comparison.retaken_rounds > 0) {
    std::cout << comparison.retaken_rounds << " rounds timed again: the machine was busy during them\n";
  }
  std::cout << std::setprecision(3) << "collage vs best single (" << comparison.best_single
            << "): " << comparison.best_single_ms / collage_ms << "x, vs greedy: " << comparison.greedy_ms / collage_ms
            << "x\n"
            << "collage: " << search.op_level_partitions << " partitions, estimated " << search.op_level_estimated_ms
            << " ms, measured " << collage_ms << " ms (additive error " << std::showpos
            << comparison.additive_error * 100 << std::noshowpos << "%)\n";
  if (search.precision) {
    std::cout << search.precision->summary;
    std::cout << "collage (precision auto) vs collage-fp32: " << *comparison.fp32_ms / collage_ms << "x";
    if (placed.reduced_precision()) {
      std::cout << "; " << api::AccuracyMetricName(search.precision->metric) << " on the disjoint inputs "
                << search.precision->check_error;
    }
    std::cout << "\n";
  }
  if (comparison.graph_ms) {
    std::cout << "collage-graph: " << placement.partitions.size() << " partitions, estimated "
              << placement.estimated_total_ms << " ms, measured " << *comparison.graph_ms << " ms (additive error "
              << std::showpos << *comparison.graph_additive_error * 100 << std::noshowpos << "%)\n";
  }

  if (const std::optional<std::string> json_path = arguments.Value("--json")) {
    // Keys in insertion order; non-finite numbers are written as null (JSON has no NaN).
    nlohmann::ordered_json latency_ms = nlohmann::ordered_json::object();
    nlohmann::ordered_json spread_ms = nlohmann::ordered_json::object();
    nlohmann::ordered_json same_placement = nlohmann::ordered_json::object();
    for (const api::VariantTiming& latency : latencies) {
      if (!latency.same_as.empty()) same_placement[latency.name] = latency.same_as;
      latency_ms[latency.name] = latency.median_ms;
      spread_ms[latency.name] = {{"p10", latency.p10_ms}, {"p90", latency.p90_ms}};
    }
    nlohmann::ordered_json speedup = {{"collage_vs_best_single", comparison.best_single_ms / collage_ms},
                                      {"collage_vs_greedy", comparison.greedy_ms / collage_ms}};
    if (comparison.graph_ms) speedup["collage_graph_vs_collage"] = collage_ms / *comparison.graph_ms;
    nlohmann::ordered_json json = {
        {"model", arguments.positional},
        {"threads", placed.threads()},
        {"latency_ms", std::move(latency_ms)},
        {"speedup", std::move(speedup)},
        {"tuning_s", search.seconds},
        {"partitions", search.op_level_partitions},
        {"repeat", options.rounds},
        {"retaken_rounds", comparison.retaken_rounds},
        {"best_single", comparison.best_single},
        {"spread_ms", std::move(spread_ms)},
        {"same_placement", std::move(same_placement)},
        {"collage_estimated_ms", search.op_level_estimated_ms},
        {"additive_error", comparison.additive_error},
        {"measured_candidates", search.measured_candidates},
        {"tuning_other_processes_cores", search.other_processes_cores},
        {"cost_database", search.cost_database},
        {"whole_regions", search.whole_regions},
    };
    if (search.precision) {
      json["precision"] = {{"tolerance", search.precision->tolerance},
                           {"metric", std::string(api::AccuracyMetricName(search.precision->metric))},
                           {"reduced_partitions", search.precision->reduced_partitions},
                           {"calibration_error", search.precision->calibration_error},
                           {"check_error", search.precision->check_error},
                           {"collage_vs_fp32", *comparison.fp32_ms / collage_ms}};
    }
    if (comparison.graph_additive_error) {
      json["collage_graph_estimated_ms"] = placement.estimated_total_ms;
      json["collage_graph_additive_error"] = *comparison.graph_additive_error;
    }
    // Bytes of a path that are not UTF-8 are replaced rather than refused.
    WriteTextFile(*json_path, json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
    std::cout << "results written to " << *json_path << "\n";
  }
  if (const std::optional<std::string> output = arguments.Value("--output")) {
    placed.SavePlan(*output);
    std::cout << "plan written to " << *output << "\n";
  }
  return 0;
}

}  // namespace collage::cli
