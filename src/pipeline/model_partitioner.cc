#include "pipeline/model_partitioner.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "backend/backend.h"
#include "backend/zero_size_guard.h"
#include "collage/error.h"
#include "collage/graph_search.h"
#include "collage/partition_spec.h"
#include "runtime/device_fingerprint.h"
#include "runtime/greedy_placement.h"
#include "support/physical_memory.h"
#include "tuning/confirmation_method.h"
#include "tuning/interleaved_benchmark.h"
#include "tuning/transition_penalty.h"

namespace collage {
namespace {

// The listed backends that optimize across the ops of a partition, in the listed order: the
// backends whose touching partitions are merged, and the graph-level search's region specs
// (each backend's spec is named after it).
std::vector<std::string> RegionBackends(const std::vector<std::string>& backends) {
  std::vector<std::string> region;
  for (const std::string& name : backends) {
    if (BackendRegistry::Global().Get(name)->optimizes_across_ops()) region.push_back(name);
  }
  return region;
}

// Merges touching partitions of `region_backends` (one oneDNN partition keeps its blocked
// layouts between the ops, a graph runtime schedules them together).
std::function<bool(const CandidatePartition&)> CoalesceRegions(std::vector<std::string> region_backends) {
  return [region_backends = std::move(region_backends)](const CandidatePartition& partition) {
    return std::find(region_backends.begin(), region_backends.end(), partition.backend()) != region_backends.end();
  };
}

// A plan's partitions in order: "onednn [plain>nhwc] 40 ops, native 1 op".
std::string PartitionSequence(const Plan& plan) {
  std::string text;
  for (const PlannedPartition& partition : plan.partitions) {
    text += (text.empty() ? "" : ", ") + WithLayoutsSuffix(partition.backend, partition.layout, partition.precision) +
            " " + std::to_string(partition.ops) + (partition.ops == 1 ? " op" : " ops");
  }
  return text;
}

void CheckGraphStageRegions(const std::vector<std::string>& backends, const std::vector<std::string>& region) {
  if (region.empty()) {
    std::string listed;
    for (const std::string& name : backends) listed += (listed.empty() ? "" : ",") + name;
    throw UsageError("--search graph needs a backend that optimizes across the ops of a partition (a graph runtime "
                "such as xnnpack, or onednn) among the backends (" + listed + " has none)");
  }
}

// The listed backends that run every op but take no regions (the native code generator): each
// one's own placement is a finalist of the graph stage, as the region backends' whole-region
// placements are, so that the final choice is not slower than any listed backend alone.
std::vector<std::string> AloneBackends(const std::vector<std::string>& backends,
                                       const std::vector<std::string>& region_backends) {
  std::vector<std::string> alone;
  for (const std::string& name : backends) {
    const bool region = std::find(region_backends.begin(), region_backends.end(), name) != region_backends.end();
    if (!region && BackendRegistry::Global().Get(name)->runs_every_op()) alone.push_back(name);
  }
  return alone;
}

// Rows of the plan for one function's outlined partitions.
void AddPartitions(Plan& plan, const PartitionResult& result, const DataflowGraph& graph, CostEstimator& estimator) {
  for (size_t c = 0; c < result.chosen.size(); ++c) {
    if (result.symbols[c].empty()) continue;
    const CandidatePartition& chosen = result.chosen[c];
    const Cost cost = chosen.EstimatedCost(graph, estimator);
    plan.partitions.push_back(PlannedPartition{result.symbols[c], chosen.backend(), chosen.boundary_layouts(),
                                               chosen.precision(), chosen.CountOpCalls(graph), cost.seconds() * 1e3});
  }
}

// What the graph stage's executable cache may hold: a quarter of the physical memory.
size_t GraphStageCacheBytes() {
  constexpr size_t kWithoutSysconf = size_t{1} << 30;
  const std::optional<size_t> memory = PhysicalMemoryBytes();
  return memory ? *memory / 4 : kWithoutSysconf;
}

// How much faster than the choice so far (the fastest whole-region placement, then the op-level
// plan, then preferred finalists) a placement must measure to replace it: the spread of repeated
// interleaved medians on this machine is about that.
constexpr double kFinalMinImprovement = 0.02;

// Interleaved rounds of that final measurement. With 10, resnext50's medians moved by ~3 %
// between runs, and a mixed plan that was no faster replaced the single-backend one.
constexpr int kFinalMeasurementRounds = 25;

// The graph-level stage over the op-level placement: per function, the evolutionary search on
// measured whole-model latency; then one interleaved measurement of the op-level plan against
// the graph stage's finalists (each region backend's whole-region placement, each alone
// backend's own placement, then the best few by fitness, so that one lucky fitness
// measurement does not decide), decided by ChooseFinalPlacement with kFinalMinImprovement.
void RunGraphStage(const Module& model, const PartitionRequest& request, const std::vector<PartitionSpec>& specs,
                   CostEstimator& estimator, const PartitionOptions& options, ModelPlacement& placement) {
  const std::vector<std::string> region_backends = RegionBackends(request.backends);
  CheckGraphStageRegions(request.backends, region_backends);
  const std::vector<std::string> alone_backends = AloneBackends(request.backends, region_backends);
  ModelPlacement::GraphStage stage;
  stage.op_level_plan = placement.plan;
  std::vector<PartitionResult> op_level_results;
  for (const ModelPlacement::FunctionPlacement& function : placement.functions) {
    op_level_results.push_back(function.result);
  }
  // finalist_results[r][f]: function f's r-th finalist, or its op-level result when it has fewer.
  std::vector<std::vector<PartitionResult>> finalist_results;
  // Per function: whether its op-level placement, and each of its finalists, is a whole region.
  std::vector<bool> op_level_is_whole_region;
  std::vector<std::vector<bool>> finalist_is_whole_region;
  // The placements the search measures share most partitions: each is compiled once.
  auto compiled = std::make_unique<ExecutableCache>(GraphStageCacheBytes());
  NameSupply names;
  size_t f = 0;
  for (const auto& [name, function] : model.functions()) {
    const PlacementFitness fitness = FitnessOfOutlined(function, [&, name = name](const Function& partitioned) {
      Module whole = placement.plan.module;
      whole.Add(name, partitioned);  // replaces this function, keeps the op-level others
      return MeasureModelMilliseconds(whole, request, 5, compiled.get()) * 1e-3;
    });
    GraphSearchOptions graph_options;
    // The wall-time budget binds, unless 10 generations in a row find nothing better.
    graph_options.evolution.time_budget_seconds = request.graph_budget_seconds;
    graph_options.evolution.generations = 10000;
    graph_options.evolution.stall_generations = 10;
    graph_options.evolution.seed = request.seed;
    graph_options.alone_specs = alone_backends;
    GraphPartitionResult result = PartitionWithGraphSearch(function, specs, estimator, options, region_backends,
                                                           fitness, graph_options, &names);
    stage.descriptions.push_back("@" + name + ": " + result.search.description.ToString());
    op_level_is_whole_region.push_back(result.search.op_level_is_whole_region);
    finalist_is_whole_region.emplace_back();
    for (size_t rank = 0; rank < result.finalists.size(); ++rank) {
      if (rank == finalist_results.size()) {
        finalist_results.push_back(op_level_results);
        stage.finalist_origins.push_back(result.search.finalist_origins[rank]);
      }
      finalist_results[rank][f] = std::move(result.finalists[rank]);
      finalist_is_whole_region.back().push_back(result.search.finalist_origins[rank].IsWholeRegion());
    }
    ++f;
  }
  // A model's placement is a whole region when each of its functions' placements is one.
  const auto whole_region_in_every_function = [&](std::optional<size_t> rank) {
    for (size_t g = 0; g < op_level_is_whole_region.size(); ++g) {
      const bool own_finalist = rank && *rank < finalist_is_whole_region[g].size();
      if (!(own_finalist ? finalist_is_whole_region[g][*rank] : op_level_is_whole_region[g])) return false;
    }
    return true;
  };

  const BackendRegistry& registry = BackendRegistry::Global();
  std::vector<Plan> finalist_plans;
  std::vector<BenchmarkVariant> variants = {
      {"op-level", PlaceGreedy(placement.plan.module, request.backends, registry)}};
  for (const std::vector<PartitionResult>& results : finalist_results) {
    finalist_plans.push_back(PlanOfResults(placement.plan, model, results, estimator));
    variants.push_back({"finalist " + std::to_string(finalist_plans.size()),
                        PlaceGreedy(finalist_plans.back().module, request.backends, registry)});
  }
  // The final measurement compiles each finalist on its own, as `collage bench` and a deployed
  // plan do. Finalists sharing executables, and so packed weights, found them warm in the caches
  // after one another's runs: that favoured mixed plans over a whole-backend one by ~3 %
  // (resnet50: a mixed plan measured 23.5 ms against all-onednn's 24.3 here, then 24.2 against
  // 23.4 in `collage bench`).
  compiled.reset();
  BenchmarkOptions benchmark;
  benchmark.threads = request.threads;
  benchmark.seed = request.seed;
  benchmark.rounds = kFinalMeasurementRounds;
  const std::vector<VariantLatency> final_measurement = BenchmarkInterleaved(variants, registry, benchmark);
  stage.op_level_ms = final_measurement[0].milliseconds.median;
  std::vector<FinalMeasurement> measured = {
      {stage.op_level_ms, whole_region_in_every_function(std::nullopt), final_measurement[0].samples}};
  for (size_t v = 1; v < final_measurement.size(); ++v) {
    stage.finalist_ms.push_back(final_measurement[v].milliseconds.median);
    measured.push_back({stage.finalist_ms.back(), whole_region_in_every_function(v - 1), final_measurement[v].samples});
  }
  stage.kept_finalist = ChooseFinalPlacement(measured, kFinalMinImprovement);
  stage.finalist_plans = finalist_plans;
  if (stage.replaced()) {
    placement.plan = finalist_plans[stage.kept_finalist - 1];
    for (size_t g = 0; g < placement.functions.size(); ++g) {
      placement.functions[g].result = std::move(finalist_results[stage.kept_finalist - 1][g]);
    }
  }
  placement.graph_stage = std::move(stage);
}

}  // namespace

Plan PlanOfResults(const Plan& like, const Module& model, const std::vector<PartitionResult>& results,
                   CostEstimator& estimator) {
  Plan plan = like;
  plan.partitions.clear();
  plan.module = Module();
  plan.total_ms = 0;  // the sum of its partitions' estimates (transition penalties aside)
  size_t f = 0;
  for (const auto& [name, function] : model.functions()) {
    const size_t first_partition = plan.partitions.size();
    AddPartitions(plan, results[f], DataflowGraph::Create(function->body), estimator);
    for (size_t p = first_partition; p < plan.partitions.size(); ++p) plan.total_ms += plan.partitions[p].estimated_ms;
    plan.module.Add(name, results[f++].function);
  }
  return plan;
}

void CheckGraphStageBackends(const std::vector<std::string>& backends) {
  CheckGraphStageRegions(backends, RegionBackends(backends));
}

double MeasureModelMilliseconds(const Module& partitioned, const PartitionRequest& request, int rounds,
                                ExecutableCache* cache) {
  const BackendRegistry& registry = BackendRegistry::Global();
  BenchmarkOptions options;
  options.threads = request.threads;
  options.seed = request.seed;
  options.warmup_runs = 1;
  options.rounds = rounds;
  options.cache = cache;
  return BenchmarkInterleaved({{"model", PlaceGreedy(partitioned, request.backends, registry)}}, registry, options)
      .front()
      .milliseconds.median;
}

ModelPlacement PlaceModel(const Module& model, const PartitionRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<PartitionSpec> specs;
  std::map<std::string, BackendPerformance> performance;
  std::set<Layout> boundary_layouts = {Layout::kPlain};  // the model's side is plain
  for (const std::string& name : request.backends) {
    const BackendPtr backend = BackendRegistry::Global().Get(name);
    const SupportDeclaration declaration = GuardedSupport(*backend);
    boundary_layouts.insert(declaration.boundary_layouts.begin(), declaration.boundary_layouts.end());
    specs.push_back(MakePartitionSpec(declaration));
    performance.emplace(name, backend->Performance());
  }
  const PartitionSpec host = MakeHostSpec();
  performance.emplace(host.backend, BackendPerformance{});  // the host computes nothing: zero cost
  specs.push_back(host);

  ModelPlacement placement;
  PartitionOptions options;
  options.threads = request.threads;
  options.explain = true;
  options.coalesce = CoalesceRegions(RegionBackends(request.backends));
  options.coalesce_across_layouts = true;
  std::shared_ptr<CostEstimator>& estimator = placement.estimator;
  MeasuredCostEstimator* measured = nullptr;
  if (request.cost_model == CostModel::kMeasured) {
    placement.database_path = request.database_path.empty() ? CostDatabase::DefaultPath() : request.database_path;
    placement.database = std::make_shared<CostDatabase>(CostDatabase::Open(placement.database_path));
    MeasuredCostOptions measured_options;
    measured_options.threads = request.threads;
    measured_options.show_progress = request.show_progress;
    measured_options.on_progress = request.on_progress;
    SetInModelCoolDown(measured_options.measurement);
    // A candidate whose runs agree is timed a few times rather than for the whole budget.
    measured_options.measurement.target_relative_error = 0.01;
    measured_options.confirmation = ConfirmationMethod(measured_options.measurement);
    auto owned = std::make_shared<MeasuredCostEstimator>(BackendRegistry::Global(), measured_options,
                                                         placement.database.get());
    measured = owned.get();
    estimator = std::move(owned);
    placement.conversion_costs = std::make_shared<MeasuredConversionCosts>(placement.database.get());
    placement.hand_over_costs =
        std::make_shared<MeasuredHandOverCosts>(BackendRegistry::Global(), placement.database.get(), request.threads);
    double most_hand_over = 0;
    for (const std::string& producer : request.backends) {
      for (const std::string& consumer : request.backends) {
        if (producer == consumer) continue;
        const double seconds = placement.hand_over_costs->Seconds(producer, consumer);
        placement.hand_overs.push_back({producer, consumer, seconds});
        most_hand_over = std::max(most_hand_over, seconds);
      }
    }
    std::map<std::string, std::string> backend_of_spec;
    for (const PartitionSpec& spec : specs) {
      if (spec.name != host.name) backend_of_spec.emplace(spec.name, spec.backend);
    }
    options.search.transition_penalty = ConversionTransitionPenalty(placement.conversion_costs->AsFunction());
    options.search.hand_over_penalty = BackendHandOverPenalty(
        [costs = placement.hand_over_costs](const std::string& producer, const std::string& consumer) {
          return costs->Seconds(producer, consumer);
        },
        std::move(backend_of_spec));
    options.search.transition_penalty_bound = ConversionTransitionPenaltyBound(
        placement.conversion_costs->AsFunction(), std::vector<Layout>(boundary_layouts.begin(), boundary_layouts.end()),
        most_hand_over);
    options.search.host_spec = host.name;
    // Measured, a whole region's few large partitions cost in isolation about what they cost in
    // the model, so the comparison can correct what adding small candidates' costs misses.
    options.whole_region_specs = RegionBackends(request.backends);
  } else {
    estimator = std::make_shared<AnalyticCostEstimator>(performance);
  }

  Plan& plan = placement.plan;
  plan = Plan{request.model_path, ModelHash(model), request.backends, request.cost_model, {}, {}, 0, Module()};
  NameSupply names;
  for (const auto& [name, function] : model.functions()) {
    PartitionResult result = Partition(function, specs, *estimator, options, &names);
    AddPartitions(plan, result, DataflowGraph::Create(function->body), *estimator);
    plan.total_ms += result.total.seconds() * 1e3;
    plan.module.Add(name, result.function);
    placement.functions.push_back({name, function, std::move(result)});
  }
  if (request.search == SearchLevel::kGraph) {
    Check(measured != nullptr, "--search graph needs --cost measured");
    RunGraphStage(model, request, specs, *estimator, options, placement);
  }
  // After the graph stage, the reduced plan must beat its final plan, not the op-level one.
  if (request.precision.mode == PrecisionMode::kAuto) {
    Check(measured != nullptr, "--precision auto needs --cost measured");
    ChoosePrecisions(model, request, specs, *estimator, options, placement);
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
         << function.result.stats.states_explored << " search states";
    if (!function.result.stats.exact) {
      text << " (approximate: the exact search outgrew its budget at " << function.result.stats.exact_states_reached
           << " states; hand-over penalties follow the cheapest path to each covered set)";
    }
    text << "\n";
    if (function.result.whole_regions) text << "  whole regions: " << function.result.whole_regions->ToString() << "\n";
    for (size_t c = 0; c < function.result.chosen.size(); ++c) {
      if (function.result.symbols[c].empty()) continue;
      const PlannedPartition& planned = plan.partitions.at(partition++);
      text << "  " << planned.symbol << "  " << WithLayoutsSuffix(planned.backend, planned.layout, planned.precision)
           << "  " << planned.ops << " ops ("
           << ShortLabel(function.result.chosen[c].sub_graph().label(), 48) << ")  "
           << FormatMilliseconds(Cost::Seconds(planned.estimated_ms * 1e-3)) << " ms\n";
    }
    explanations += "\n@" + function.name + ":\n" + function.result.explanation->ToString();
  }
  text << "total: " << FormatMilliseconds(Cost::Seconds(plan.total_ms * 1e-3)) << " ms estimated, "
       << plan.partitions.size() << " partitions\n"
       << explanations;
  if (precision) text << "\n" << precision->Summary();
  if (graph_stage) {
    text << "\ngraph-level stage (the placement above is the "
         << (graph_stage->replaced() ? "graph stage's" : "op-level one") << "):\n";
    for (const std::string& description : graph_stage->descriptions) text << description << "\n";
    text << graph_stage->FinalDecision() << "\n";
  }
  return text.str();
}

std::string ModelPlacement::GraphStage::FinalDecision() const {
  std::ostringstream text;
  text << "final interleaved measurement: op-level " << op_level_ms << " ms";
  for (size_t rank = 0; rank < finalist_ms.size(); ++rank) {
    text << ", finalist " << rank + 1 << " (" << finalist_origins[rank].ToString() << ") " << finalist_ms[rank] << " ms";
  }
  text << ": " << (replaced() ? "finalist " + std::to_string(kept_finalist) + " is kept"
                             : std::string("the op-level plan is kept"));
  text << "\n  op-level: " << PartitionSequence(op_level_plan);
  for (size_t rank = 0; rank < finalist_plans.size(); ++rank) {
    text << "\n  finalist " << rank + 1 << " (" << finalist_origins[rank].ToString()
         << "): " << PartitionSequence(finalist_plans[rank]);
  }
  return text.str();
}

}  // namespace collage
