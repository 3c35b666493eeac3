#include "backend/native/execution_planner.h"

#include <algorithm>
#include <map>

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/fuse_ops/fuse_ops.h"
#include "support/error.h"

namespace collage::native {
namespace {

constexpr int kMaxFuseDepth = 256;

std::vector<const TensorTypeNode*> FlatTypes(const Type& type) {
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    std::vector<const TensorTypeNode*> flat;
    for (const Type& field : tuple->fields) {
      for (const TensorTypeNode* tensor : FlatTypes(field)) flat.push_back(tensor);
    }
    return flat;
  }
  const TensorTypeNode* tensor = AsTensorType(type);
  if (tensor == nullptr) throw Error("native: a value is neither a tensor nor a tuple");
  return {tensor};
}

size_t Bytes(const TensorTypeNode& type) { return static_cast<size_t>(NumElements(type.shape)) * DTypeSize(type.dtype); }

class Planner {
 public:
  PlannedFunction Plan(const Function& function) {
    for (size_t p = 0; p < function->params.size(); ++p) {
      if (!AsTensorType(function->params[p]->checked_type())) {
        throw Error("native: parameter %" + function->params[p]->name_hint + " is a tuple; partitions take tensors only");
      }
      slots_[function->params[p].get()] = {Slot{Slot::Kind::kInput, p}};
    }
    const Function fused = FuseOpsIn(function, true, kMaxFuseDepth);
    std::vector<Expr> order = PostOrder(fused->body, false);
    for (const Expr& expr : order) Visit(expr);
    ComputeLastUses();
    const std::vector<Slot> outputs = slots_.at(fused->body.get());
    BindOutputs(outputs);
    AssignBuffers();
    return std::move(result_);
  }

 private:
  void Visit(const Expr& expr) {
    if (slots_.count(expr.get())) return;
    if (const auto* constant = As<ConstantNode>(expr)) {
      slots_[expr.get()] = {Slot{Slot::Kind::kConstant, result_.plan.constants.size()}};
      result_.plan.constants.push_back(constant->data);
    } else if (const auto* tuple = As<TupleNode>(expr)) {
      std::vector<Slot>& slots = slots_[expr.get()];
      for (const Expr& field : tuple->fields) {
        for (const Slot& slot : slots_.at(field.get())) slots.push_back(slot);
      }
    } else if (const auto* item = As<TupleGetItemNode>(expr)) {
      slots_[expr.get()] = {slots_.at(item->tuple.get()).at(item->index)};
    } else if (const auto* call = As<CallNode>(expr)) {
      AddStep(*call, expr.get());
    } else if (expr->kind() != ExprKind::kOp && expr->kind() != ExprKind::kFunction && expr->kind() != ExprKind::kVar) {
      throw Error("native: unexpected " + DescribeExpr(*expr) + " in a fused function");
    }
  }

  void AddStep(const CallNode& call, const ExprNode* node) {
    const auto* group = As<FunctionNode>(call.callee);
    if (group == nullptr) throw Error("native: an op call was left outside every FuseOps group");
    const Function function = Downcast<FunctionNode>(call.callee);
    Step step;
    std::vector<const ConstantNode*> param_constants;
    for (const Expr& arg : call.args) {
      param_constants.push_back(As<ConstantNode>(arg));
      const std::vector<Slot>& slots = slots_.at(arg.get());
      if (slots.size() != 1) throw Error("native: a group takes a tuple argument");
      step.args.push_back(slots[0]);
    }
    step.result_types = FlatTypes(call.checked_type());
    std::vector<Slot>& results = slots_[node];
    for (const TensorTypeNode* type : step.result_types) {
      const Slot slot{Slot::Kind::kBuffer, value_bytes_.size()};
      value_bytes_.push_back(Bytes(*type));
      step.results.push_back(slot);
      results.push_back(slot);
    }
    const size_t index = result_.plan.steps.size();
    if (CanGenerateGroup(function)) {
      GeneratedKernel kernel = GenerateGroupKernel(function, "@SYMBOL@", param_constants);
      for (const Constant& constant : kernel.constants) {
        step.args.push_back(Slot{Slot::Kind::kConstant, result_.plan.constants.size()});
        result_.plan.constants.push_back(constant->data);
      }
      result_.kernels.push_back(std::move(kernel));
      result_.kernel_steps.push_back(index);
    } else {
      step.fallback = function;
    }
    result_.plan.steps.push_back(std::move(step));
  }

  // Values are numbered by slot index of kind kBuffer until AssignBuffers renumbers them.
  void ComputeLastUses() {
    last_use_.assign(value_bytes_.size(), 0);
    for (size_t s = 0; s < result_.plan.steps.size(); ++s) {
      for (const Slot& slot : result_.plan.steps[s].results) last_use_[slot.index] = s;
      for (const Slot& slot : result_.plan.steps[s].args) {
        if (slot.kind == Slot::Kind::kBuffer) last_use_[slot.index] = s;
      }
    }
  }

  // Function outputs produced by a step are written in place; others are copied at the end.
  void BindOutputs(const std::vector<Slot>& outputs) {
    output_of_value_.assign(value_bytes_.size(), -1);
    for (size_t o = 0; o < outputs.size(); ++o) {
      const Slot& slot = outputs[o];
      if (slot.kind == Slot::Kind::kBuffer && output_of_value_[slot.index] < 0) {
        output_of_value_[slot.index] = static_cast<int>(o);
      } else {
        result_.plan.output_copies.emplace_back(o, slot);
      }
    }
  }

  void AssignBuffers() {
    std::vector<Slot> value_slot(value_bytes_.size());
    std::vector<size_t>& buffer_bytes = result_.plan.buffer_bytes;
    std::vector<size_t> free_buffers;
    for (size_t s = 0; s < result_.plan.steps.size(); ++s) {
      Step& step = result_.plan.steps[s];
      for (const Slot& slot : step.results) {
        const size_t value = slot.index;
        if (output_of_value_[value] >= 0) {
          value_slot[value] = Slot{Slot::Kind::kOutput, static_cast<size_t>(output_of_value_[value])};
          continue;
        }
        value_slot[value] = Slot{Slot::Kind::kBuffer, TakeBuffer(free_buffers, buffer_bytes, value_bytes_[value])};
      }
      // Buffers whose value is read for the last time here are free for later steps.
      for (const std::vector<Slot>* slots : {&step.args, &step.results}) {
        for (const Slot& slot : *slots) {
          if (slot.kind != Slot::Kind::kBuffer || last_use_[slot.index] != s) continue;
          const Slot& assigned = value_slot[slot.index];
          if (assigned.kind == Slot::Kind::kBuffer &&
              std::find(free_buffers.begin(), free_buffers.end(), assigned.index) == free_buffers.end()) {
            free_buffers.push_back(assigned.index);
          }
        }
      }
    }
    const auto renumber = [&](Slot& slot) {
      if (slot.kind == Slot::Kind::kBuffer) slot = value_slot[slot.index];
    };
    for (Step& step : result_.plan.steps) {
      for (Slot& slot : step.args) renumber(slot);
      for (Slot& slot : step.results) renumber(slot);
    }
    for (auto& copy : result_.plan.output_copies) renumber(copy.second);
  }

  // The smallest free buffer of at least `bytes`, else the largest free one grown, else a new one.
  static size_t TakeBuffer(std::vector<size_t>& free_buffers, std::vector<size_t>& buffer_bytes, size_t bytes) {
    int best = -1;
    for (size_t f = 0; f < free_buffers.size(); ++f) {
      const size_t size = buffer_bytes[free_buffers[f]];
      const size_t best_size = best < 0 ? 0 : buffer_bytes[free_buffers[best]];
      const bool fits = size >= bytes;
      const bool best_fits = best >= 0 && best_size >= bytes;
      if (best < 0 || (fits && (!best_fits || size < best_size)) || (!fits && !best_fits && size > best_size)) {
        best = static_cast<int>(f);
      }
    }
    if (best < 0) {
      buffer_bytes.push_back(bytes);
      return buffer_bytes.size() - 1;
    }
    const size_t buffer = free_buffers[best];
    free_buffers.erase(free_buffers.begin() + best);
    buffer_bytes[buffer] = std::max(buffer_bytes[buffer], bytes);
    return buffer;
  }

  PlannedFunction result_;
  std::map<const ExprNode*, std::vector<Slot>> slots_;
  std::vector<size_t> value_bytes_;
  std::vector<size_t> last_use_;
  std::vector<int> output_of_value_;
};

}  // namespace

PlannedFunction PlanFunction(const Function& function) {
  if (!function->body->checked_type()) InferType(function);
  return Planner().Plan(function);
}

}  // namespace collage::native
