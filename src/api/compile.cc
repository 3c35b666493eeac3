// Compile, Place, PlaceGreedily and LoadPlan: the public API's entry points over the placement
// pipeline.
#include "api/compiled_model_state.h"
#include "api/error_translation.h"
#include "api/model_state.h"
#include "api/option_conversion.h"
#include "backend/backend.h"
#include "pass/standard_passes.h"
#include "pipeline/plan_file.h"
#include "pipeline/request_checks.h"
#include "runtime/greedy_placement.h"
#include "runtime/tensor_memory_check.h"

namespace collage::api {
namespace {

PartitionRequest RequestOf(const Model& model, const CompileOptions& options) {
  CheckCompileOptions(options);
  PartitionRequest request;
  request.model_path = model.name();
  request.backends = options.backends.empty() ? AvailableBackends() : options.backends;
  request.cost_model = ToLibraryCostModel(options.cost);
  request.search = ToLibrarySearchLevel(options.search);
  request.database_path = options.database_path;
  request.threads = options.threads;
  request.seed = options.seed;
  request.graph_budget_seconds = options.graph_budget_seconds;
  request.show_progress = options.progress_bar;
  request.on_progress = options.on_progress;
  request.precision.mode = ToLibraryPrecision(options.precision);
  request.precision.tolerance = options.tolerance;
  request.precision.metric = ToLibraryMetric(options.metric);
  request.precision.calibration_files = options.calibration_files;
  if (request.search == collage::SearchLevel::kGraph) CheckGraphStageBackends(request.backends);
  return request;
}

Module Optimized(const Model& model) {
  return Translating<ModelError>([&] { return StandardPipeline()(model.state().module); });
}

}  // namespace

Executor& CompiledModel::State::executor() {
  if (executor_ == nullptr) {
    Translating<ModelError>([&] { CheckTensorsFitInMemory(loaded.main(), plan.model_path); });
    executor_ = Translating<BackendError>([&] {
      const BackendRegistry& registry = BackendRegistry::Global();
      ExecutorOptions options;
      options.compile.threads = threads;
      options.profile = true;
      return std::make_unique<Executor>(PlaceGreedy(plan.module, plan.backends, registry), registry, options);
    });
  }
  return *executor_;
}

CompiledModel MakeCompiledModel(const Model& model, Module optimized, Plan plan,
                                std::optional<ModelPlacement> placement, int threads) {
  auto state = std::make_shared<CompiledModel::State>();
  state->loaded = model.state().module;
  state->optimized = std::move(optimized);
  state->threads = threads;
  state->plan = std::move(plan);
  state->placement = std::move(placement);
  return CompiledModel(std::move(state));
}

CompiledModel Place(const Model& model, const CompileOptions& options) {
  const PartitionRequest request = RequestOf(model, options);
  Module optimized = Optimized(model);
  ModelPlacement placement = Translating<ModelError>([&] { return PlaceModel(optimized, request); });
  Plan plan = placement.plan;
  return MakeCompiledModel(model, std::move(optimized), std::move(plan), std::move(placement), request.threads);
}

CompiledModel Compile(const Model& model, const CompileOptions& options) {
  CompiledModel compiled = Place(model, options);
  compiled.state().executor();
  return compiled;
}

CompiledModel PlaceGreedily(const Model& model, const std::vector<std::string>& backends, int threads) {
  CheckBackendNames(backends);
  CheckThreads(threads);
  Module optimized = Optimized(model);
  Plan plan;
  plan.model_path = model.name();
  plan.backends = backends;
  plan.module = optimized;
  return MakeCompiledModel(model, std::move(optimized), std::move(plan), std::nullopt, threads);
}

CompiledModel LoadPlan(const Model& model, const std::string& plan_path, int threads) {
  CheckThreads(threads);
  Module optimized = Optimized(model);
  Plan plan = Translating<ModelError>([&] {
    Plan read = ReadPlanFile(plan_path);
    CheckPlanMatchesModel(read, plan_path, optimized, model.name());
    return read;
  });
  CompiledModel compiled = MakeCompiledModel(model, std::move(optimized), std::move(plan), std::nullopt, threads);
  compiled.state().executor();
  return compiled;
}

}  // namespace collage::api
