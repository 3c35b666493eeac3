#include "pipeline/precision_placement.h"

#include <algorithm>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>

#include "backend/backend.h"
#include "backend/precision.h"
#include "collage/outline_partitions.h"
#include "interpreter/calibration.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "ir/visitor.h"
#include "pipeline/argument_arrays.h"
#include "pipeline/model_partitioner.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"
#include "tuning/interleaved_benchmark.h"
#include "support/error.h"

namespace collage {
namespace {

// Seeds of the default calibration sets are 1, 1001, ...; the check sets' 500, 1500, ...
constexpr uint64_t kFirstCheckSeed = 500;
// Interleaved rounds of the reduced plan against the fp32 plan.
constexpr int kComparisonRounds = 15;
// Compiled partitions kept while the loop tries its plans: each is compiled once per precision.
constexpr size_t kCacheBytes = size_t{4} << 30;

// `function` with the listed reduced partitions' functions turned back to f32.
class BackToF32 : public ExprMutator {
 public:
  explicit BackToF32(std::set<std::string> symbols) : symbols_(std::move(symbols)) {}

 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    const Function callee = Downcast<FunctionNode>(post->callee);
    if (!callee || !callee->attrs.Has(attr::kGlobalSymbol) ||
        symbols_.count(callee->attrs.GetString(attr::kGlobalSymbol)) == 0) {
      return post;
    }
    return MakeCall(WithPrecision(callee, DType::kF32, {}), post->args, post->attrs);
  }

 private:
  std::set<std::string> symbols_;
};

Module WithF32Partitions(const Module& module, const std::set<std::string>& symbols) {
  if (symbols.empty()) return module;
  Module result;
  for (const auto& [name, function] : module.functions()) {
    BackToF32 rewrite(symbols);
    result.Add(name, MakeFunction(function->params, rewrite.Mutate(function->body), function->attrs));
  }
  return result;
}

// Runs placements of one plan on argument sets and measures their error against the plan's
// all-f32 form, sharing compiled partitions between them.
class PlanAccuracy {
 public:
  PlanAccuracy(const Module& plan_module, std::vector<std::string> reduced_symbols, const PartitionRequest& request)
      : module_(plan_module), symbols_(std::move(reduced_symbols)), request_(request), cache_(kCacheBytes) {}

  // The worst error over `inputs` with the partitions flagged in `reduced` reduced.
  double Error(const std::vector<bool>& reduced, const std::vector<std::vector<Value>>& inputs) {
    std::vector<std::vector<Tensor>>& expected = references_[&inputs];
    if (expected.empty()) {
      Executor reference = ExecutorOf(std::vector<bool>(symbols_.size(), false));
      for (const std::vector<Value>& arguments : inputs) expected.push_back(reference.Run(arguments).Flatten());
    }
    Executor executor = ExecutorOf(reduced);
    double worst = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      worst = std::max(worst, MeasureError(request_.precision.metric, executor.Run(inputs[i]).Flatten(), expected[i]));
    }
    return worst;
  }

  Module ModuleOf(const std::vector<bool>& reduced) const {
    std::set<std::string> back;
    for (size_t i = 0; i < symbols_.size(); ++i) {
      if (!reduced[i]) back.insert(symbols_[i]);
    }
    return WithF32Partitions(module_, back);
  }

 private:
  Executor ExecutorOf(const std::vector<bool>& reduced) {
    const BackendRegistry& registry = BackendRegistry::Global();
    ExecutorOptions options;
    options.compile.threads = request_.threads;
    options.cache = &cache_;
    return Executor(PlaceGreedy(ModuleOf(reduced), request_.backends, registry), registry, options);
  }

  Module module_;
  std::vector<std::string> symbols_;
  const PartitionRequest& request_;
  ExecutableCache cache_;
  std::unordered_map<const void*, std::vector<std::vector<Tensor>>> references_;
};

const char* DecisionText(PrecisionOutcome::Decision decision) {
  switch (decision) {
    case PrecisionOutcome::Decision::kReduced: return "the reduced-precision plan is kept";
    case PrecisionOutcome::Decision::kNothingReduced:
      return "the search chose no reduced-precision partition: the fp32 plan is kept";
    case PrecisionOutcome::Decision::kAllF32Needed:
      return "even the all-f32 plan is needed to stay within the tolerance: the fp32 plan is kept";
    case PrecisionOutcome::Decision::kNotFaster:
      return "the reduced-precision plan is not measured faster than the fp32 plan: the fp32 plan is kept";
  }
  return "";
}

}  // namespace

std::vector<std::vector<Value>> CalibrationInputs(const Function& main, const PrecisionRequest& request) {
  if (request.calibration_files.empty()) return RandomCalibrationInputs(main, kDefaultCalibrationSets);
  std::vector<std::vector<Value>> inputs;
  for (const std::string& file : request.calibration_files) inputs.push_back(ArgumentsFromArrays(main, ReadNpz(file), file));
  return inputs;
}

std::vector<std::vector<Value>> CheckInputs(const Function& main, size_t count) {
  return RandomCalibrationInputs(main, count, kFirstCheckSeed);
}

void ChoosePrecisions(const Module& model, const PartitionRequest& request, const std::vector<PartitionSpec>& specs,
                      CostEstimator& estimator, const PartitionOptions& options, ModelPlacement& placement) {
  PrecisionOutcome outcome;
  outcome.request = request.precision;
  outcome.fp32_plan = placement.plan;
  const Function& main = model.main();
  const std::vector<std::vector<Value>> calibration = CalibrationInputs(main, request.precision);
  outcome.calibration_sets = calibration.size();
  const RangesByNode ranges = CalibrateRanges(main, calibration);
  std::vector<PartitionSpec> calibrated = specs;
  for (PartitionSpec& spec : calibrated) {
    spec.calibrated_range = [&ranges](const ExprNode& node) -> std::optional<ActivationRange> {
      const auto found = ranges.find(&node);
      if (found == ranges.end()) return std::nullopt;
      return found->second;
    };
  }

  std::vector<PartitionResult> results;
  NameSupply names;
  size_t main_index = 0;
  for (const auto& [name, function] : model.functions()) {
    if (name == "main") {
      main_index = results.size();
      results.push_back(Partition(function, calibrated, estimator, options, &names));
    } else {
      results.push_back(Partition(function, specs, estimator, options, &names));
    }
  }
  Plan reduced_plan = PlanOfResults(placement.plan, model, results, estimator);

  const PartitionResult& main_result = results[main_index];
  const DataflowGraph graph = DataflowGraph::Create(main->body);
  std::vector<ReducedPartitionCost> costs;
  std::vector<std::string> symbols;
  for (size_t c = 0; c < main_result.chosen.size(); ++c) {
    const CandidatePartition& chosen = main_result.chosen[c];
    if (chosen.precision() == DType::kF32 || main_result.symbols[c].empty()) continue;
    Attrs f32_attrs = *PrimitiveAttrs(chosen.sub_graph());
    f32_attrs.Erase(attr::kPrecision);
    f32_attrs.Erase(attr::kActivationRanges);
    const CandidatePartition f32(WithPrimitiveAttrs(graph, chosen.sub_graph(), std::move(f32_attrs)),
                                 chosen.spec_name(), chosen.backend(), chosen.rule_name());
    const double seconds_saved =
        f32.EstimatedCost(graph, estimator).seconds() - chosen.EstimatedCost(graph, estimator).seconds();
    costs.push_back({main_result.symbols[c], seconds_saved, 0});
    symbols.push_back(main_result.symbols[c]);
  }
  if (symbols.empty()) {
    outcome.decision = PrecisionOutcome::Decision::kNothingReduced;
    placement.precision = std::move(outcome);
    return;
  }

  PlanAccuracy accuracy(reduced_plan.module, symbols, request);
  for (size_t i = 0; i < costs.size(); ++i) {
    std::vector<bool> alone(costs.size(), false);
    alone[i] = true;
    costs[i].error_alone = accuracy.Error(alone, calibration);
  }
  const AccuracyLoopResult loop = RunAccuracyLoop(costs, request.precision.tolerance, [&](const std::vector<bool>& reduced) {
    return accuracy.Error(reduced, calibration);
  });
  for (size_t i = 0; i < costs.size(); ++i) {
    outcome.partitions.push_back({costs[i].name, costs[i].seconds_saved, costs[i].error_alone, !loop.reduced[i], 0});
  }
  for (const AccuracyLoopStep& step : loop.moved_back) outcome.partitions[step.partition].error_before = step.error_before;
  outcome.calibration_error = loop.error;
  if (std::none_of(loop.reduced.begin(), loop.reduced.end(), [](bool reduced) { return reduced; })) {
    outcome.decision = PrecisionOutcome::Decision::kAllF32Needed;
    placement.precision = std::move(outcome);
    return;
  }
  const std::vector<std::vector<Value>> check = CheckInputs(main);
  outcome.check_sets = check.size();
  outcome.check_error = accuracy.Error(loop.reduced, check);

  const Module reduced_module = accuracy.ModuleOf(loop.reduced);
  const BackendRegistry& registry = BackendRegistry::Global();
  BenchmarkOptions benchmark;
  benchmark.threads = request.threads;
  benchmark.seed = request.seed;
  benchmark.rounds = kComparisonRounds;
  const std::vector<VariantLatency> latencies = BenchmarkInterleaved(
      {{"fp32", PlaceGreedy(placement.plan.module, request.backends, registry)},
       {"reduced", PlaceGreedy(reduced_module, request.backends, registry)}},
      registry, benchmark);
  outcome.fp32_ms = latencies[0].milliseconds.median;
  outcome.reduced_ms = latencies[1].milliseconds.median;
  if (outcome.reduced_ms >= outcome.fp32_ms) {
    outcome.decision = PrecisionOutcome::Decision::kNotFaster;
    placement.precision = std::move(outcome);
    return;
  }

  outcome.decision = PrecisionOutcome::Decision::kReduced;
  reduced_plan.module = reduced_module;
  reduced_plan.precision = PlanPrecision{request.precision.mode, request.precision.tolerance,
                                         request.precision.metric, outcome.calibration_error, outcome.check_error};
  std::set<std::string> back;
  for (const PrecisionOutcome::Partition& partition : outcome.partitions) {
    if (partition.moved_back) back.insert(partition.symbol);
  }
  reduced_plan.total_ms = 0;
  for (PlannedPartition& planned : reduced_plan.partitions) {
    if (back.count(planned.symbol) > 0) {
      const auto found = std::find_if(outcome.partitions.begin(), outcome.partitions.end(),
                                      [&](const auto& partition) { return partition.symbol == planned.symbol; });
      planned.precision = DType::kF32;
      planned.estimated_ms += found->seconds_saved * 1e3;
    }
    reduced_plan.total_ms += planned.estimated_ms;
  }
  placement.plan = std::move(reduced_plan);
  for (size_t f = 0; f < placement.functions.size(); ++f) placement.functions[f].result = std::move(results[f]);
  placement.precision = std::move(outcome);
}

std::string PrecisionOutcome::Summary() const {
  std::ostringstream text;
  const char* metric = AccuracyMetricName(request.metric);
  text << "precision auto: tolerance " << request.tolerance << " " << metric << " against the all-f32 plan, "
       << calibration_sets << " calibration input sets\n";
  for (const Partition& partition : partitions) {
    text << "  " << partition.symbol << ": " << metric << " alone " << partition.error_alone << ", saves "
         << partition.seconds_saved * 1e3 << " ms (estimated)";
    if (partition.moved_back) {
      text << ": moved back to f32 (plan's " << metric << " " << partition.error_before << " over the tolerance; "
           << "the most error per millisecond saved)";
    }
    text << "\n";
  }
  if (!partitions.empty()) {
    text << "  " << metric << " on the calibration inputs: " << calibration_error;
    if (check_sets > 0) text << ", on " << check_sets << " disjoint seeded input sets: " << check_error;
    text << "\n";
  }
  if (reduced_ms > 0) text << "  measured: reduced " << reduced_ms << " ms, fp32 " << fp32_ms << " ms\n";
  text << "  " << DecisionText(decision) << "\n";
  return text.str();
}

}  // namespace collage
