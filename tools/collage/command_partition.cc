// `collage partition MODEL --backends B1,B2,... [--cost analytic] [-o PLAN]`: places every
// part of the model on the listed backends with the Collage partitioner and prints the
// placement (one line per partition and the total) and the explain table; -o writes the plan;
// --report runs the placed model and writes the HTML placement report.
#include <iostream>

#include "available_backends.h"
#include "backend/backend.h"
#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "commands.h"
#include "model_loader.h"
#include "partition_report_writer.h"
#include "plan_file.h"
#include "text_file.h"
#include "threads_option.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "partition";

// Phase 1 from the registry: one spec per backend from its declaration, plus the host.
struct Placement {
  std::vector<PartitionSpec> specs;
  std::map<std::string, BackendPerformance> performance;
};

Placement PlacementFor(const std::vector<std::string>& backends) {
  Placement placement;
  for (const std::string& name : backends) {
    const BackendPtr backend = BackendRegistry::Global().Get(name);
    placement.specs.push_back(MakePartitionSpec(backend->Support()));
    placement.performance.emplace(name, backend->Performance());
  }
  const PartitionSpec host = MakeHostSpec();
  placement.performance.emplace(host.backend, BackendPerformance{});  // the host computes nothing: zero cost
  placement.specs.push_back(host);
  return placement;
}

void CheckSupportedOptions(const ParsedArguments& arguments) {
  const std::string cost = arguments.Value("--cost").value_or("analytic");
  if (cost == "measured") {
    throw UsageError("--cost measured is not available yet (it needs the profiler); use --cost analytic", kCommand);
  }
  if (cost != "analytic") throw UsageError("--cost expects analytic or measured, got '" + cost + "'", kCommand);
  if (arguments.Has("--db")) {
    throw UsageError("--db (the measured-cost database) needs --cost measured, which is not available yet", kCommand);
  }
  const std::string search = arguments.Value("--search").value_or("op");
  if (search == "graph") {
    throw UsageError("--search graph (the evolutionary graph-level search) is not available yet; use --search op",
                     kCommand);
  }
  if (search != "op") throw UsageError("--search expects op or graph, got '" + search + "'", kCommand);
}

size_t CountOps(const CandidatePartition& candidate, const DataflowGraph& graph) {
  size_t ops = 0;
  for (size_t index : candidate.sub_graph().inside().ToVector()) {
    if (const auto* call = As<CallNode>(graph.node(index).expr); call && call->op()) ++ops;
  }
  return ops;
}

}  // namespace

CommandSpec PartitionCommandSpec() {
  return {kCommand,
          "MODEL",
          "place the parts of the model on backends by estimated cost and print the placement",
          {
              {{"--backends"}, "B1,B2,...", "backends to place on (default: every available backend)"},
              {{"--cost"}, "analytic|measured", "cost model: analytic (default; roofline per backend) or measured (not yet)"},
              {{"--search"}, "op|graph", "op (default: the exact op-level search) or graph (not yet)"},
              {{"--db"}, "PATH", "measured-cost database (needs --cost measured)"},
              {{"--output", "-o"}, "PLAN", "write the plan (partitioned model and costs) to PLAN for `run --plan`"},
              {{"--report"}, "REPORT.html",
               "run the placed model, time each partition and write an HTML report (graph, estimates, measurements)"},
              ThreadsOptionSpec(),
          }};
}

int RunPartitionCommand(const ParsedArguments& arguments) {
  CheckSupportedOptions(arguments);
  std::string default_backends;
  for (const std::string& name : BackendRegistry::Global().Names()) {
    default_backends += (default_backends.empty() ? "" : ",") + name;
  }
  const std::vector<std::string> backends =
      ParseBackendList(arguments.Value("--backends").value_or(default_backends), kCommand);
  const Module model = LoadModel(arguments.positional);
  Placement placement = PlacementFor(backends);
  AnalyticCostEstimator estimator(placement.performance);
  PartitionOptions options;
  options.explain = true;

  Plan plan{arguments.positional, ModelHash(model), backends, "analytic", {}, 0, Module()};
  PlacementReport report{
      .model = arguments.positional, .backends = backends, .threads = ThreadsArgument(arguments), .cost_model = plan.cost_model};
  size_t next_symbol = 0;
  std::string explanations;
  for (const auto& [name, function] : model.functions()) {
    const PartitionResult result = Partition(function, placement.specs, estimator, options, &next_symbol);
    const DataflowGraph graph = DataflowGraph::Create(function->body);
    std::cout << "@" << name << ": " << result.stats.candidates << " candidates, " << result.stats.states_explored
              << " search states\n";
    for (size_t c = 0; c < result.chosen.size(); ++c) {
      if (result.symbols[c].empty()) continue;
      const CandidatePartition& chosen = result.chosen[c];
      const Cost cost = chosen.EstimatedCost(graph, estimator);
      const PlannedPartition planned{result.symbols[c], chosen.backend(), CountOps(chosen, graph), cost.seconds() * 1e3};
      std::cout << "  " << planned.symbol << "  " << planned.backend << "  " << planned.ops << " ops ("
                << ShortLabel(chosen.sub_graph().label(), 48) << ")  " << FormatMilliseconds(cost) << " ms\n";
      plan.partitions.push_back(planned);
    }
    plan.total_ms += result.total.seconds() * 1e3;
    plan.module.Add(name, result.function);
    AddPartitionedFunction(report, function, result, estimator);
    explanations += "\n@" + name + ":\n" + result.explanation->ToString();
  }
  std::cout << "total: " << FormatMilliseconds(Cost::Seconds(plan.total_ms * 1e-3)) << " ms estimated, "
            << plan.partitions.size() << " partitions\n"
            << explanations;
  if (const std::optional<std::string> output = arguments.Value("--output")) {
    WriteTextFile(*output, PlanToText(plan));
    std::cout << "plan written to " << *output << "\n";
  }
  if (const std::optional<std::string> report_path = arguments.Value("--report")) {
    WritePartitionReport(*report_path, report, plan.module);
    std::cout << "report written to " << *report_path << "\n";
  }
  return 0;
}

}  // namespace collage::cli
