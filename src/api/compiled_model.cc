#include "collage/compiled_model.h"

#include <map>
#include <sstream>

#include "api/compiled_model_state.h"
#include "api/error_translation.h"
#include "api/tensor_conversion.h"
#include "ir/type.h"
#include "ir/visitor.h"
#include "pipeline/output_names.h"
#include "pipeline/partition_report_writer.h"
#include "pipeline/text_file.h"
#include "runtime/profiler.h"
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
  const Value result = Translating<BackendError>([&] { return state.executor->Run(arguments); });
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
  placement.cost = plan.cost_model == collage::CostModel::kMeasured ? CostModel::kMeasured : CostModel::kAnalytic;
  placement.estimated_total_ms = plan.total_ms;
  std::map<std::string, ProfileRow> measured;
  for (const ProfileRow& row : state_->executor->profiler()->Rows()) measured.emplace(row.call.global_symbol, row);
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
    WritePartitionReport(path, report, state_->plan.module);
  });
}

}  // namespace collage::api
