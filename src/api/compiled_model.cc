#include "collage/compiled_model.h"

#include <map>
#include <sstream>

#include "api/compiled_model_state.h"
#include "api/error_translation.h"
#include "api/option_conversion.h"
#include "api/tensor_conversion.h"
#include "interpreter/interpreter.h"
#include "ir/type.h"
#include "ir/visitor.h"
#include "pipeline/argument_arrays.h"
#include "pipeline/output_names.h"
#include "pipeline/partition_report_writer.h"
#include "pipeline/reduced_precision_check.h"
#include "pipeline/text_file.h"
#include "runtime/compare.h"
#include "runtime/profiler.h"
#include "runtime/tensor_memory_check.h"
#include "support/partition_layouts.h"

namespace collage::api {
namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined.empty() ? "none" : joined;
}

// The input for `parameter`, checked against its type; the buffer is used in place.
Value ArgumentFor(const Var& parameter, const Tensor& input) {
  const TensorInfo expected = DescribeParameter(parameter);
  const std::string expected_type = TypeToString(parameter->type_annotation);
  if (!input.defined()) {
    throw UsageError("input '" + expected.name + "' has no data (expected " + expected_type + ")");
  }
  if (input.element_type() != expected.element_type || input.shape() != expected.shape) {
    throw UsageError("input '" + expected.name + "' is " + input.TypeString() + " but parameter '" + expected.name +
                     "' expects " + expected_type);
  }
  return Value(ToLibraryTensor(input));
}

std::vector<NamedTensor> RunExecutor(CompiledModel::State& state, const std::vector<Value>& arguments) {
  state.last_input_addresses.clear();
  for (const Value& argument : arguments) state.last_input_addresses.push_back(argument.tensor().raw_data());
  Executor& executor = state.executor();
  const Value result = Translating<BackendError>([&] { return executor.Run(arguments); });
  std::vector<NamedTensor> outputs;
  for (const auto& [name, tensor] : NameOutputs(result)) outputs.push_back({name, FromLibraryTensor(tensor)});
  return outputs;
}

// The op calls inside the partition function named `symbol` (composites included), in
// dataflow order.
std::vector<std::string> OpsOfPartition(const Module& module, const std::string& symbol) {
  for (const auto& [name, function] : module.functions()) {
    for (const Expr& node : PostOrder(function->body, false)) {
      const auto* call = As<CallNode>(node);
      const auto* callee = call == nullptr ? nullptr : As<FunctionNode>(call->callee);
      if (callee == nullptr || !callee->attrs.Has(attr::kGlobalSymbol) ||
          callee->attrs.GetString(attr::kGlobalSymbol) != symbol) {
        continue;
      }
      std::vector<std::string> ops;
      for (const Expr& inside : PostOrder(callee->body)) {
        const auto* op_call = As<CallNode>(inside);
        if (op_call != nullptr && op_call->op() != nullptr) ops.push_back(op_call->op()->name);
      }
      return ops;
    }
  }
  return {};
}

}  // namespace

std::vector<TensorInfo> CompiledModel::inputs() const {
  std::vector<TensorInfo> inputs;
  for (const Var& parameter : state_->plan.module.main()->params) inputs.push_back(DescribeParameter(parameter));
  return inputs;
}

std::vector<NamedTensor> CompiledModel::Run(const std::vector<NamedTensor>& inputs) {
  const Function& main = state_->plan.module.main();
  std::map<std::string, const Tensor*> by_name;
  std::vector<std::string> given;
  for (const NamedTensor& input : inputs) {
    if (!by_name.emplace(input.name, &input.tensor).second) {
      throw UsageError("input '" + input.name + "' is given twice");
    }
    given.push_back(input.name);
  }
  std::vector<std::string> parameter_names;
  for (const Var& parameter : main->params) parameter_names.push_back(parameter->name_hint);
  std::vector<Value> arguments;
  for (const Var& parameter : main->params) {
    const auto found = by_name.find(parameter->name_hint);
    if (found == by_name.end()) {
      throw UsageError("no input for parameter '" + parameter->name_hint + "' (expected " +
                       TypeToString(parameter->type_annotation) + "); given: " + JoinNames(given));
    }
    arguments.push_back(ArgumentFor(parameter, *found->second));
    by_name.erase(found);
  }
  if (!by_name.empty()) {
    throw UsageError("input '" + by_name.begin()->first + "' matches no parameter of @main (parameters: " +
                     JoinNames(parameter_names) + ")");
  }
  return RunExecutor(*state_, arguments);
}

std::vector<NamedTensor> CompiledModel::Run(const std::vector<Tensor>& inputs) {
  const Function& main = state_->plan.module.main();
  if (inputs.size() != main->params.size()) {
    throw UsageError("@main expects " + std::to_string(main->params.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  }
  std::vector<Value> arguments;
  for (size_t i = 0; i < inputs.size(); ++i) arguments.push_back(ArgumentFor(main->params[i], inputs[i]));
  return RunExecutor(*state_, arguments);
}

Placement CompiledModel::placement() const {
  const Plan& plan = state_->plan;
  Placement placement;
  placement.backends = plan.backends;
  placement.cost = FromLibraryCostModel(plan.cost_model);
  placement.estimated_total_ms = plan.total_ms;
  std::map<std::string, ProfileRow> measured;
  if (const Executor* executor = state_->compiled_executor()) {
    for (const ProfileRow& row : executor->profiler()->Rows()) measured.emplace(row.call.global_symbol, row);
  }
  for (const PlannedPartition& planned : plan.partitions) {
    PartitionInfo partition{planned.symbol, planned.backend, OpsOfPartition(plan.module, planned.symbol),
                            PartitionLayoutsName(planned.layout), planned.estimated_ms, std::nullopt};
    const auto row = measured.find(planned.symbol);
    if (row != measured.end() && row->second.runs > 0) partition.measured_ms = row->second.median_ms;
    placement.partitions.push_back(std::move(partition));
  }
  return placement;
}

std::string Placement::ToString() const {
  std::ostringstream text;
  for (const PartitionInfo& partition : partitions) {
    std::string ops;
    for (const std::string& op : partition.ops) ops += (ops.empty() ? "" : ", ") + op;
    text << "  " << partition.symbol << "  " << partition.backend
         << (partition.layout == "plain" ? "" : " [" + partition.layout + "]") << "  " << partition.ops.size()
         << " ops (" << ops << ")  " << partition.estimated_ms << " ms est.";
    if (partition.measured_ms) text << ", " << *partition.measured_ms << " ms measured";
    text << "\n";
  }
  text << "total: " << estimated_total_ms << " ms estimated, " << partitions.size() << " partitions\n";
  return text.str();
}

std::vector<Tensor> CompiledModel::RandomInputs(uint64_t seed) const {
  Translating<ModelError>([&] { CheckTensorsFitInMemory(state_->loaded.main(), state_->plan.model_path); });
  std::vector<Tensor> inputs;
  for (const Value& argument : RandomArguments(state_->plan.module.main(), seed)) {
    inputs.push_back(FromLibraryTensor(argument.tensor()));
  }
  return inputs;
}

std::vector<Tensor> CompiledModel::InputsFromArrays(const std::vector<NamedTensor>& arrays,
                                                    const std::string& file) const {
  NamedTensors library_arrays;
  for (const NamedTensor& array : arrays) library_arrays.emplace_back(array.name, ToLibraryTensor(array.tensor));
  const Function& main = state_->plan.module.main();
  Translating<UsageError>([&] { ArgumentsFromArrays(main, library_arrays, file); });
  std::vector<Tensor> inputs;
  for (const Var& parameter : main->params) {
    for (const NamedTensor& array : arrays) {
      if (array.name == parameter->name_hint) inputs.push_back(array.tensor);
    }
  }
  return inputs;
}

ReferenceCheck CompiledModel::CheckAgainstReference(const std::vector<Tensor>& inputs,
                                                    const std::vector<NamedTensor>& outputs,
                                                    const ReferenceCheckOptions& options) const {
  std::vector<Value> arguments;
  for (const Tensor& input : inputs) arguments.emplace_back(ToLibraryTensor(input));
  std::vector<collage::Tensor> actual;
  for (const NamedTensor& output : outputs) actual.push_back(ToLibraryTensor(output.tensor));
  const Value reference = Translating<ModelError>([&] { return Evaluate(state_->loaded.main(), arguments); });
  ReferenceCheck check;
  if (reduced_precision()) {
    PlanPrecision precision = state_->plan.precision;
    if (options.tolerance) precision.tolerance = *options.tolerance;
    if (options.metric) precision.metric = ToLibraryMetric(*options.metric);
    const ReducedPrecisionCheck reduced = Translating<UsageError>(
        [&] { return CheckReducedPrecision(Value::MakeTuple({actual.begin(), actual.end()}), reference, precision); });
    check.ok = reduced.within_tolerance;
    check.summary = reduced.message;
    if (!check.ok) check.failure = reduced.message;
    return check;
  }
  const Comparison comparison =
      Translating<UsageError>([&] { return CompareTensorLists(actual, reference.Flatten()); });
  std::ostringstream summary;
  summary << "max abs error: " << comparison.max_abs_error
          << ", relative to the output's magnitude: " << comparison.max_scaled_error;
  check.ok = comparison.ok();
  check.summary = summary.str();
  if (!check.ok) {
    check.failure = std::to_string(comparison.mismatches) +
                    " elements differ from the reference; first: " + comparison.first_mismatch;
  }
  return check;
}

bool CompiledModel::reduced_precision() const { return HasReducedPrecision(state_->plan); }

RunProfile CompiledModel::Profile() const {
  const Executor& executor = state_->executor();
  return {executor.profiler()->Table(), executor.memory_plan().arena_bytes, executor.memory_plan().total_bytes};
}

void CompiledModel::ClearProfile() { state_->executor().ClearProfile(); }

std::optional<SearchSummary> CompiledModel::search() const {
  if (!state_->placement) return std::nullopt;
  const ModelPlacement& placement = *state_->placement;
  SearchSummary summary;
  summary.listing = placement.Listing();
  summary.seconds = placement.seconds;
  if (placement.tuning) {
    summary.tuning = placement.tuning->ToString();
    summary.measured_candidates = placement.tuning->measured;
    summary.busier_machine_candidates = placement.tuning->from_busier;
    summary.other_processes_cores = placement.tuning->OtherProcessesCores();
  }
  summary.cost_database = placement.database_path;
  for (const InvalidCandidate& invalid : placement.invalid) {
    summary.invalid.push_back({invalid.description, invalid.reason});
  }
  for (const ModelPlacement::HandOver& hand_over : placement.hand_overs) {
    summary.hand_overs.push_back({hand_over.producer, hand_over.consumer, hand_over.seconds});
  }
  for (const ModelPlacement::FunctionPlacement& function : placement.functions) {
    if (function.result.whole_regions) {
      summary.whole_regions.push_back("@" + function.name + ": " + function.result.whole_regions->ToString());
    }
  }
  const Plan& op_level_plan = placement.graph_stage ? placement.graph_stage->op_level_plan : placement.plan;
  summary.op_level_partitions = op_level_plan.partitions.size();
  summary.op_level_estimated_ms = op_level_plan.total_ms;
  if (placement.graph_stage) {
    summary.graph_stage = placement.graph_stage->descriptions;
    summary.graph_stage_decision = placement.graph_stage->FinalDecision();
  }
  if (placement.precision) {
    summary.precision = SearchSummary::PrecisionStage{placement.precision->Summary(),
                                                      placement.precision->request.tolerance,
                                                      FromLibraryMetric(placement.precision->request.metric),
                                                      ReducedPartitionCount(placement.plan),
                                                      placement.plan.precision.calibration_error,
                                                      placement.plan.precision.check_error};
  }
  return summary;
}

int CompiledModel::threads() const { return state_->threads; }

void CompiledModel::SavePlan(const std::string& path) const {
  Translating<UsageError>([&] { WriteTextFile(path, PlanToText(state_->plan)); });
}

void CompiledModel::WriteReport(const std::string& path) const {
  if (!state_->placement) {
    throw UsageError("a report shows the placement search's alternatives, which a plan loaded from a file does not "
                     "keep: compile the model to write its report");
  }
  const ModelPlacement& placement = *state_->placement;
  PlacementReport report{.model = state_->plan.model_path,
                         .backends = state_->plan.backends,
                         .threads = static_cast<size_t>(state_->threads),
                         .cost_model = state_->plan.cost_model};
  Translating<BackendError>([&] {
    for (const ModelPlacement::FunctionPlacement& function : placement.functions) {
      AddPartitionedFunction(report, function.original, function.result, *placement.estimator);
    }
    for (const InvalidCandidate& invalid : placement.invalid) report.refused.push_back({invalid.description, invalid.reason});
    SetReportPrecisions(report, state_->plan);
    WritePartitionReport(path, report, state_->plan.module);
  });
}

}  // namespace collage::api
