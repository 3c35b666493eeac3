#include "runtime/execution_plan.h"

#include <cstdint>
#include <map>
#include <unordered_map>

#include "backend/boundary_layout.h"
#include "runtime/invoke_executable.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"

namespace collage {
namespace {

class PlanBuilder {
 public:
  ExecutionPlan Build(const Function& function) {
    if (!function->checked_type()) InferType(function);
    for (const Var& param : function->params) {
      std::vector<size_t>& slots = slots_of_[param.get()];
      for (const TensorTypeNode* type : FlattenedTensorTypes(param->checked_type())) {
        TensorSlot slot{TensorSlot::Source::kArgument, type->dtype, type->shape, plan_.argument_types.size(), {}};
        plan_.argument_types.push_back(TensorType(type->dtype, type->shape));
        slots.push_back(AddSlot(std::move(slot)));
      }
    }
    for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
      if (slots_of_.count(node.get())) continue;
      Lower(node);
    }
    for (size_t slot : slots_of_.at(function->body.get())) plan_.results.push_back(InLayout(slot, Layout::kPlain));
    plan_.result_type = function->body->checked_type();
    return std::move(plan_);
  }

 private:
  size_t AddSlot(TensorSlot slot) {
    plan_.slots.push_back(std::move(slot));
    return plan_.slots.size() - 1;
  }

  // `slot`, or a slot holding its value in `layout` written by a conversion step (added once).
  size_t InLayout(size_t slot, Layout layout) {
    const TensorSlot& source = plan_.slots[slot];
    if (LayoutsShareBytes(source.shape, source.layout, layout)) return slot;
    const auto [converted, inserted] = converted_.try_emplace({slot, layout}, plan_.slots.size());
    if (!inserted) return converted->second;
    TensorSlot target{TensorSlot::Source::kActivation, source.dtype, source.shape, 0, {}, layout};
    ExecutionStep step;
    step.global_symbol = "convert_" + std::to_string(next_conversion_++);
    step.layouts = {source.layout, layout};
    step.inputs = {slot};
    step.outputs = {AddSlot(std::move(target))};
    plan_.steps.push_back(std::move(step));
    return converted->second;
  }

  void Lower(const Expr& node) {
    switch (node->kind()) {
      case ExprKind::kConstant: {
        const Tensor& data = As<ConstantNode>(node)->data;
        slots_of_[node.get()] = {AddSlot({TensorSlot::Source::kConstant, data.dtype(), data.shape(), 0, data})};
        return;
      }
      case ExprKind::kTuple: {
        std::vector<size_t>& slots = slots_of_[node.get()];
        for (const Expr& field : As<TupleNode>(node)->fields) {
          const std::vector<size_t>& field_slots = slots_of_.at(field.get());
          slots.insert(slots.end(), field_slots.begin(), field_slots.end());
        }
        return;
      }
      case ExprKind::kTupleGetItem:
        slots_of_[node.get()] = Projection(*As<TupleGetItemNode>(node));
        return;
      case ExprKind::kCall:
        LowerCall(Downcast<CallNode>(node));
        return;
      case ExprKind::kVar:
        throw Error("the executor found " + DescribeExpr(*node) + ", which is not a parameter of the function");
      case ExprKind::kOp:
      case ExprKind::kFunction:
        return;  // callees
    }
  }

  std::vector<size_t> Projection(const TupleGetItemNode& projection) {
    const TupleTypeNode* tuple = AsTupleType(projection.tuple->checked_type());
    Check(tuple != nullptr, "a projection of a non-tuple value");
    size_t begin = 0;
    for (int i = 0; i < projection.index; ++i) begin += FlattenedTensorTypes(tuple->fields[static_cast<size_t>(i)]).size();
    const size_t count = FlattenedTensorTypes(tuple->fields[static_cast<size_t>(projection.index)]).size();
    const std::vector<size_t>& all = slots_of_.at(projection.tuple.get());
    return std::vector<size_t>(all.begin() + static_cast<std::ptrdiff_t>(begin),
                               all.begin() + static_cast<std::ptrdiff_t>(begin + count));
  }

  void LowerCall(const Call& call) {
    ExecutionStep step;
    const auto* partition = As<FunctionNode>(call->callee);
    if (partition != nullptr && partition->attrs.Has(attr::kCompiler)) {
      step.function = Downcast<FunctionNode>(call->callee);
      step.backend = partition->attrs.GetString(attr::kCompiler);
      step.global_symbol = partition->attrs.Has(attr::kGlobalSymbol) ? partition->attrs.GetString(attr::kGlobalSymbol)
                                                                      : step.backend + "_partition";
      try {
        step.layouts = BoundaryLayoutsOf(step.function);
      } catch (const Error& error) {
        throw Error("partition " + step.global_symbol + ": " + error.what());
      }
      for (const Expr& arg : call->args) {
        const std::vector<size_t>& arg_slots = slots_of_.at(arg.get());
        if (!AsTensorType(arg->checked_type())) {
          throw Error("partition " + step.global_symbol + " takes a tuple argument; partitions take tensors only");
        }
        step.inputs.push_back(InLayout(arg_slots.at(0), step.layouts.parameters));
      }
    } else {
      step.global_symbol = "host_" + std::to_string(next_host_++);
      step.function = WrapHostCall(*call, step);
    }
    std::vector<size_t>& outputs = slots_of_[call.get()];
    for (const TensorTypeNode* type : FlattenedTensorTypes(call->checked_type())) {
      outputs.push_back(AddSlot({TensorSlot::Source::kActivation, type->dtype, type->shape, 0, {}, step.layouts.results}));
    }
    step.outputs = outputs;
    plan_.steps.push_back(std::move(step));
  }

  // fn(p0, p1, ...) { callee(p0, constant, p1, ...) } with the call's attributes.
  Function WrapHostCall(const CallNode& call, ExecutionStep& step) {
    std::vector<Var> params;
    std::vector<Expr> args;
    for (const Expr& arg : call.args) {
      if (arg->kind() == ExprKind::kConstant) {
        args.push_back(arg);
        continue;
      }
      if (!AsTensorType(arg->checked_type())) {
        throw Error(DescribeExpr(call) + " outside every partition takes a tuple argument, which the executor cannot pass");
      }
      Var param = MakeVar("p" + std::to_string(params.size()), arg->checked_type());
      params.push_back(param);
      args.push_back(param);
      step.inputs.push_back(InLayout(slots_of_.at(arg.get()).at(0), Layout::kPlain));
    }
    Function function = MakeFunction(params, MakeCall(call.callee, args, call.attrs));
    InferType(function);
    return function;
  }

  ExecutionPlan plan_;
  std::unordered_map<const ExprNode*, std::vector<size_t>> slots_of_;
  std::map<std::pair<size_t, Layout>, size_t> converted_;  // (slot, layout) -> the converted slot
  size_t next_host_ = 0;
  size_t next_conversion_ = 0;
};

}  // namespace

ExecutionPlan BuildExecutionPlan(const Function& function) { return PlanBuilder().Build(function); }

std::vector<BufferLifetime> ActivationLifetimes(const ExecutionPlan& plan, std::vector<size_t>* activation_of_slot) {
  std::vector<BufferLifetime> lifetimes;
  activation_of_slot->assign(plan.slots.size(), SIZE_MAX);
  for (size_t step = 0; step < plan.steps.size(); ++step) {
    for (size_t slot : plan.steps[step].outputs) {
      (*activation_of_slot)[slot] = lifetimes.size();
      lifetimes.push_back({plan.slots[slot].NumBytes(), step, step});
    }
    for (size_t slot : plan.steps[step].inputs) {
      if ((*activation_of_slot)[slot] != SIZE_MAX) lifetimes[(*activation_of_slot)[slot]].last_step = step;
    }
  }
  for (size_t slot : plan.results) {
    if ((*activation_of_slot)[slot] != SIZE_MAX) lifetimes[(*activation_of_slot)[slot]].last_step = plan.steps.size();
  }
  return lifetimes;
}

size_t CountOpCalls(const Function& function) {
  size_t count = 0;
  for (const Expr& node : PostOrder(function)) {
    const auto* call = As<CallNode>(node);
    count += call != nullptr && call->op() != nullptr;
  }
  return count;
}

}  // namespace collage
