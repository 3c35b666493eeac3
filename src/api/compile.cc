// Compile and LoadPlan: the public API's entry points over the placement pipeline.
#include "api/compiled_model_state.h"
#include "api/error_translation.h"
#include "api/model_state.h"
#include "backend/backend.h"
#include "pass/standard_passes.h"
#include "pipeline/plan_file.h"
#include "pipeline/request_checks.h"
#include "runtime/greedy_placement.h"

namespace collage::api {
namespace {

PartitionRequest RequestOf(const Model& model, const CompileOptions& options) {
  PartitionRequest request;
  request.model_path = model.name();
  request.backends = options.backends.empty() ? AvailableBackends() : options.backends;
  request.cost_model = options.cost == CostModel::kMeasured ? collage::CostModel::kMeasured : collage::CostModel::kAnalytic;
  request.search = options.search == SearchLevel::kGraph ? collage::SearchLevel::kGraph : collage::SearchLevel::kOp;
  request.database_path = options.database_path;
  request.threads = options.threads;
  request.seed = options.seed;
  request.graph_budget_seconds = options.graph_budget_seconds;
  request.show_progress = options.progress_bar;
  request.on_progress = options.on_progress;
  request.precision.mode = options.precision == Precision::kAuto ? PrecisionMode::kAuto : PrecisionMode::kFp32;
  request.precision.tolerance = options.tolerance;
  request.precision.metric = options.metric == AccuracyMetric::kTop1          ? collage::AccuracyMetric::kTop1
                             : options.metric == AccuracyMetric::kMaxRelative ? collage::AccuracyMetric::kMaxRelative
                                                                              : collage::AccuracyMetric::kRelativeL2;
  request.precision.calibration_files = options.calibration_files;
  CheckBackendNames(request.backends);
  CheckThreads(request.threads);
  CheckCostOptions(request.cost_model, request.search, !request.database_path.empty());
  CheckTolerance(request.precision.tolerance);
  CheckPrecisionOptions(request.precision.mode, request.cost_model, request.search);
  if (request.search == collage::SearchLevel::kGraph) CheckGraphStageBackends(request.backends);
  if (!(options.graph_budget_seconds > 0)) {
    throw UsageError("the graph budget must be a positive number of seconds, got " +
                     std::to_string(options.graph_budget_seconds));
  }
  return request;
}

}  // namespace

std::vector<std::string> AvailableBackends() { return BackendRegistry::Global().Names(); }

CompiledModel MakeCompiledModel(Plan plan, std::optional<ModelPlacement> placement, int threads) {
  auto state = std::make_shared<CompiledModel::State>();
  state->threads = threads;
  state->executor = Translating<BackendError>([&] {
    const BackendRegistry& registry = BackendRegistry::Global();
    ExecutorOptions options;
    options.compile.threads = threads;
    options.profile = true;
    return std::make_unique<Executor>(PlaceGreedy(plan.module, plan.backends, registry), registry, options);
  });
  state->plan = std::move(plan);
  state->placement = std::move(placement);
  return CompiledModel(std::move(state));
}

CompiledModel Compile(const Model& model, const CompileOptions& options) {
  const PartitionRequest request = RequestOf(model, options);
  const Module optimized = Translating<ModelError>([&] { return StandardPipeline()(model.state().module); });
  ModelPlacement placement = Translating<ModelError>([&] { return PlaceModel(optimized, request); });
  Plan plan = placement.plan;
  return MakeCompiledModel(std::move(plan), std::move(placement), request.threads);
}

CompiledModel LoadPlan(const Model& model, const std::string& plan_path, int threads) {
  CheckThreads(threads);
  Plan plan = Translating<ModelError>([&] {
    Plan read = ReadPlanFile(plan_path);
    CheckPlanMatchesModel(read, plan_path, StandardPipeline()(model.state().module), model.name());
    return read;
  });
  return MakeCompiledModel(std::move(plan), std::nullopt, threads);
}

}  // namespace collage::api
