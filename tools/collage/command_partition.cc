// `collage partition MODEL --backends B1,B2,... [--cost analytic|measured] [--db PATH]
// [--threads N] [--search op|graph] [-o PLAN] [--report REPORT.html]`: places every part of
// the model on the listed backends with the Collage partitioner and prints the placement (one
// line per partition and the total) and the explain table; -o writes the plan; --report runs
// the placed model and writes the HTML placement report.
#include <algorithm>
#include <iostream>
#include <map>

#include "available_backends.h"
#include "backend/backend.h"
#include "commands.h"
#include "model_loader.h"
#include "model_partitioner.h"
#include "partition_report_writer.h"
#include "text_file.h"
#include "threads_option.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "partition";
// Invalid candidates listed one by one; beyond this, counted per reason.
constexpr size_t kInvalidListed = 5;

PartitionRequest RequestFrom(const ParsedArguments& arguments) {
  PartitionRequest request;
  request.cost_model = arguments.Value("--cost").value_or("analytic");
  if (request.cost_model != "analytic" && request.cost_model != "measured") {
    throw UsageError("--cost expects analytic or measured, got '" + request.cost_model + "'", kCommand);
  }
  if (arguments.Has("--db") && request.cost_model != "measured") {
    throw UsageError("--db (the measured-cost database) needs --cost measured", kCommand);
  }
  request.search = arguments.Value("--search").value_or("op");
  if (request.search != "op" && request.search != "graph") {
    throw UsageError("--search expects op or graph, got '" + request.search + "'", kCommand);
  }
  if (request.search == "graph" && request.cost_model != "measured") {
    throw UsageError("--search graph measures whole-model latency: it needs --cost measured", kCommand);
  }
  request.graph_budget_seconds = static_cast<double>(arguments.UnsignedValue("--graph-budget", 120, 1, 86400));
  request.seed = arguments.UnsignedValue("--seed", 0);
  std::string default_backends;
  for (const std::string& name : BackendRegistry::Global().Names()) {
    default_backends += (default_backends.empty() ? "" : ",") + name;
  }
  request.backends = ParseBackendList(arguments.Value("--backends").value_or(default_backends), kCommand);
  request.database_path = arguments.Value("--db").value_or("");
  request.threads = static_cast<int>(ThreadsArgument(arguments));
  request.model_path = arguments.positional;
  return request;
}

void PrintTuning(const ModelPlacement& placement) {
  std::cout << "tuning: " << placement.tuning->ToString() << "; cost database " << placement.database_path << "\n";
  std::cout << "transition penalty: inputs copied at " << placement.copy_bandwidth / 1e9 << " GB/s\n";
  std::map<std::string, size_t> per_reason;
  for (size_t i = 0; i < placement.invalid.size(); ++i) {
    const InvalidCandidate& invalid = placement.invalid[i];
    if (i < kInvalidListed) std::cout << "  invalid: " << invalid.description << ": " << invalid.reason << "\n";
    ++per_reason[invalid.reason.substr(0, invalid.reason.find(':'))];
  }
  if (placement.invalid.size() > kInvalidListed) {
    std::cout << "  ... " << placement.invalid.size() - kInvalidListed << " more invalid candidates; by reason:\n";
    for (const auto& [reason, count] : per_reason) std::cout << "    " << count << "  " << reason << "\n";
  }
}

}  // namespace

CommandSpec PartitionCommandSpec() {
  return {kCommand,
          "MODEL",
          "place the parts of the model on backends by estimated cost and print the placement",
          {
              {{"--backends"}, "B1,B2,...", "backends to place on (default: every available backend)"},
              {{"--cost"}, "analytic|measured",
               "cost model: analytic (default; roofline per backend) or measured (time every candidate)"},
              {{"--db"}, "PATH", "measured-cost database (default: ~/.cache/collage/costs.sqlite)"},
              ThreadsOptionSpec(),
              {{"--search"}, "op|graph",
               "op (default: the exact op-level search) or graph (then an evolutionary search on measured "
               "whole-model latency; needs --cost measured)"},
              {{"--graph-budget"}, "SECONDS", "wall time of the graph-level search per function (default: 120)"},
              {{"--seed"}, "S", "seed of the random inputs and of the graph-level search (default: 0)"},
              {{"--output", "-o"}, "PLAN", "write the plan (partitioned model and costs) to PLAN for `run --plan`"},
              {{"--report"}, "REPORT.html",
               "run the placed model, time each partition and write an HTML report (graph, estimates, measurements)"},
          }};
}

int RunPartitionCommand(const ParsedArguments& arguments) {
  PartitionRequest request = RequestFrom(arguments);
  const Module model = LoadModel(arguments.positional);
  const ModelPlacement placement = PlaceModel(model, request);
  std::cout << placement.Listing();
  if (placement.tuning) PrintTuning(placement);
  std::cout << "partitioning took " << placement.seconds << " s\n";
  if (const std::optional<std::string> output = arguments.Value("--output")) {
    WriteTextFile(*output, PlanToText(placement.plan));
    std::cout << "plan written to " << *output << "\n";
  }
  if (const std::optional<std::string> report_path = arguments.Value("--report")) {
    PlacementReport report{.model = request.model_path,
                           .backends = request.backends,
                           .threads = static_cast<size_t>(request.threads),
                           .cost_model = placement.plan.cost_model};
    for (const ModelPlacement::FunctionPlacement& function : placement.functions) {
      AddPartitionedFunction(report, function.original, function.result, *placement.estimator);
    }
    WritePartitionReport(*report_path, report, placement.plan.module);
    std::cout << "report written to " << *report_path << "\n";
  }
  return 0;
}

}  // namespace collage::cli
