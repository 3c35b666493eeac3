#include "model_partitioner.h"

#include <chrono>
#include <sstream>

#include "backend/backend.h"
#include "collage/partition_spec.h"
#include "runtime/device_fingerprint.h"
#include "tuning/transition_penalty.h"

namespace collage::cli {
namespace {

// The name the copy bandwidth is kept under in the cost database, per device.
constexpr const char* kCopyBandwidthName = "copy_bandwidth_bytes_per_second";

size_t CountOps(const CandidatePartition& candidate, const DataflowGraph& graph) {
  size_t ops = 0;
  for (size_t index : candidate.sub_graph().inside().ToVector()) {
    if (const auto* call = As<CallNode>(graph.node(index).expr); call && call->op()) ++ops;
  }
  return ops;
}

double CopyBandwidth(CostDatabase& database) {
  const std::string device = DeviceFingerprint();
  if (const std::optional<double> known = database.LookupDeviceValue(device, kCopyBandwidthName)) return *known;
  const double measured = MeasureCopyBandwidth();
  database.StoreDeviceValue(device, kCopyBandwidthName, measured);
  return measured;
}

}  // namespace

ModelPlacement PlaceModel(const Module& model, const PartitionRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<PartitionSpec> specs;
  std::map<std::string, BackendPerformance> performance;
  for (const std::string& name : request.backends) {
    const BackendPtr backend = BackendRegistry::Global().Get(name);
    specs.push_back(MakePartitionSpec(backend->Support()));
    performance.emplace(name, backend->Performance());
  }
  const PartitionSpec host = MakeHostSpec();
  performance.emplace(host.backend, BackendPerformance{});  // the host computes nothing: zero cost
  specs.push_back(host);

  ModelPlacement placement;
  PartitionOptions options;
  options.explain = true;
  std::unique_ptr<CostEstimator> estimator;
  std::optional<CostDatabase> database;
  MeasuredCostEstimator* measured = nullptr;
  if (request.cost_model == "measured") {
    placement.database_path = request.database_path.empty() ? CostDatabase::DefaultPath() : request.database_path;
    database.emplace(CostDatabase::Open(placement.database_path));
    MeasuredCostOptions measured_options;
    measured_options.threads = request.threads;
    measured_options.show_progress = request.show_progress;
    auto owned = std::make_unique<MeasuredCostEstimator>(BackendRegistry::Global(), measured_options, &*database);
    measured = owned.get();
    estimator = std::move(owned);
    placement.copy_bandwidth = CopyBandwidth(*database);
    options.search.transition_penalty = CopyTransitionPenalty(placement.copy_bandwidth, host.name);
  } else {
    Check(request.cost_model == "analytic", "unknown cost model '" + request.cost_model + "'");
    estimator = std::make_unique<AnalyticCostEstimator>(performance);
  }

  Plan& plan = placement.plan;
  plan = Plan{request.model_path, ModelHash(model), request.backends, request.cost_model, {}, 0, Module()};
  size_t next_symbol = 0;
  for (const auto& [name, function] : model.functions()) {
    PartitionResult result = Partition(function, specs, *estimator, options, &next_symbol);
    const DataflowGraph graph = DataflowGraph::Create(function->body);
    for (size_t c = 0; c < result.chosen.size(); ++c) {
      if (result.symbols[c].empty()) continue;
      const CandidatePartition& chosen = result.chosen[c];
      const Cost cost = chosen.EstimatedCost(graph, *estimator);
      plan.partitions.push_back(PlannedPartition{result.symbols[c], chosen.backend(), CountOps(chosen, graph),
                                                 cost.seconds() * 1e3});
    }
    plan.total_ms += result.total.seconds() * 1e3;
    plan.module.Add(name, result.function);
    placement.functions.push_back({name, function, std::move(result)});
  }
  if (measured != nullptr) {
    placement.tuning = measured->stats();
    placement.invalid = measured->invalid();
  }
  placement.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return placement;
}

std::string ModelPlacement::Listing() const {
  std::ostringstream text;
  std::string explanations;
  size_t partition = 0;
  for (const FunctionPlacement& function : functions) {
    const DataflowGraph graph = DataflowGraph::Create(function.original->body);
    text << "@" << function.name << ": " << function.result.stats.candidates << " candidates, "
         << function.result.stats.states_explored << " search states\n";
    for (size_t c = 0; c < function.result.chosen.size(); ++c) {
      if (function.result.symbols[c].empty()) continue;
      const PlannedPartition& planned = plan.partitions.at(partition++);
      text << "  " << planned.symbol << "  " << planned.backend << "  " << planned.ops << " ops ("
           << ShortLabel(function.result.chosen[c].sub_graph().label(), 48) << ")  "
           << FormatMilliseconds(Cost::Seconds(planned.estimated_ms * 1e-3)) << " ms\n";
    }
    explanations += "\n@" + function.name + ":\n" + function.result.explanation->ToString();
  }
  text << "total: " << FormatMilliseconds(Cost::Seconds(plan.total_ms * 1e-3)) << " ms estimated, "
       << plan.partitions.size() << " partitions\n"
       << explanations;
  return text.str();
}

}  // namespace collage::cli
