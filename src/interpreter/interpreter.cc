#include "interpreter/interpreter.h"

#include <unordered_map>

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"

namespace collage {
namespace {

// Throws Error unless `value` has type `type`; `what` names the value in the message.
void CheckValueType(const Value& value, const Type& type, const std::string& what) {
  if (const TensorTypeNode* tensor_type = AsTensorType(type)) {
    if (value.is_tuple()) throw Error(what + ": expected " + TypeToString(type) + ", got a tuple");
    const Tensor& tensor = value.tensor();
    if (!tensor.defined() || tensor.dtype() != tensor_type->dtype || tensor.shape() != tensor_type->shape) {
      throw Error(what + ": expected " + TypeToString(type) + ", got " +
                  (tensor.defined() ? TypeToString(TensorType(tensor.dtype(), tensor.shape())) : "no tensor"));
    }
    return;
  }
  const TupleTypeNode* tuple_type = AsTupleType(type);
  Check(tuple_type != nullptr, what + ": cannot pass a value of type " + TypeToString(type));
  if (!value.is_tuple() || value.fields().size() != tuple_type->fields.size()) {
    throw Error(what + ": expected a " + TypeToString(type));
  }
  for (size_t i = 0; i < tuple_type->fields.size(); ++i) {
    CheckValueType(value.fields()[i], tuple_type->fields[i], what + " field " + std::to_string(i));
  }
}

[[noreturn]] void FailAt(const ExprNode& node, const std::string& message) {
  const std::string where = node.location().ToString();
  throw Error("interpreter: " + DescribeExpr(node) + (where.empty() ? "" : " at " + where) + ": " + message);
}

Value RunOpCall(const CallNode& call, const OpDef& op, const std::vector<Value>& args) {
  std::vector<Tensor> tensors;
  tensors.reserve(args.size());
  for (const Value& arg : args) {
    if (arg.is_tuple()) FailAt(call, "an op argument is a tuple");
    tensors.push_back(arg.tensor());
  }
  if (!op.reference_kernel) FailAt(call, "op " + op.name + " has no reference kernel");
  std::vector<Tensor> outputs;
  try {
    outputs = op.reference_kernel(tensors, call.attrs, call.checked_type());
  } catch (const Error& error) {
    FailAt(call, error.what());
  }
  if (const TupleTypeNode* tuple = AsTupleType(call.checked_type())) {
    if (outputs.size() != tuple->fields.size()) FailAt(call, "kernel returned the wrong number of outputs");
    std::vector<Value> fields(outputs.begin(), outputs.end());
    return Value::MakeTuple(std::move(fields));
  }
  if (outputs.size() != 1) FailAt(call, "kernel returned " + std::to_string(outputs.size()) + " outputs, expected 1");
  return outputs[0];
}

Value EvaluateTyped(const FunctionNode& function, const std::vector<Value>& args, const ValueObserver* observe = nullptr);

Value EvaluateNode(const Expr& node, const std::vector<Value>& operands) {
  switch (node->kind()) {
    case ExprKind::kConstant:
      return As<ConstantNode>(node)->data;
    case ExprKind::kCall: {
      const auto* call = As<CallNode>(node);
      std::vector<Value> args(operands.begin() + 1, operands.end());  // operands[0] is the callee
      if (const OpDef* op = call->op()) return RunOpCall(*call, *op, args);
      return EvaluateTyped(*As<FunctionNode>(call->callee), args);
    }
    case ExprKind::kTuple:
      return Value::MakeTuple(operands);
    case ExprKind::kTupleGetItem:
      return operands[0].fields().at(static_cast<size_t>(As<TupleGetItemNode>(node)->index));
    case ExprKind::kVar:
      FailAt(*node, "variable is not a parameter of the function being evaluated");
    case ExprKind::kOp:
    case ExprKind::kFunction:
      return Value();  // callees: consumed by the call itself
  }
  return Value();
}

Value EvaluateTyped(const FunctionNode& function, const std::vector<Value>& args, const ValueObserver* observe) {
  std::vector<Expr> order = PostOrder(function.body, /*enter_functions=*/false);

  // Values are dropped once their last user has run, so a long chain needs little memory.
  std::unordered_map<const ExprNode*, int> remaining_uses;
  for (const Expr& node : order) {
    ForEachChild(*node, [&](const Expr& child) { ++remaining_uses[child.get()]; });
  }
  std::unordered_map<const ExprNode*, Value> values;
  for (size_t i = 0; i < function.params.size(); ++i) {
    values[function.params[i].get()] = args[i];
    if (observe) (*observe)(*function.params[i], args[i]);
  }

  std::vector<Value> operands;
  for (const Expr& node : order) {
    if (values.count(node.get())) continue;  // a parameter
    operands.clear();
    ForEachChild(*node, [&](const Expr& child) { operands.push_back(values[child.get()]); });
    values[node.get()] = EvaluateNode(node, operands);
    const bool is_callee = node->kind() == ExprKind::kOp || node->kind() == ExprKind::kFunction;
    if (observe && !is_callee) (*observe)(*node, values[node.get()]);
    ForEachChild(*node, [&](const Expr& child) {
      if (--remaining_uses[child.get()] == 0 && child != function.body) values.erase(child.get());
    });
  }
  return values.at(function.body.get());
}

}  // namespace

Value Evaluate(const Function& function, const std::vector<Value>& args) { return Evaluate(function, args, nullptr); }

Value Evaluate(const Function& function, const std::vector<Value>& args, const ValueObserver& observe) {
  if (!function->checked_type()) InferType(function);
  if (args.size() != function->params.size()) {
    throw Error("function expects " + std::to_string(function->params.size()) + " arguments, got " +
                std::to_string(args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const Var& param = function->params[i];
    CheckValueType(args[i], param->checked_type(), "argument for parameter %" + param->name_hint);
  }
  return EvaluateTyped(*function, args, observe ? &observe : nullptr);
}

namespace {

Value RandomValue(const Type& type, uint64_t seed) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) {
    const bool is_float = IsFloatingPoint(tensor->dtype);
    return Tensor::Random(tensor->dtype, tensor->shape, seed, is_float ? -1.0 : 0.0, is_float ? 1.0 : 10.0);
  }
  const TupleTypeNode* tuple = AsTupleType(type);
  Check(tuple != nullptr, "cannot make a random value of type " + TypeToString(type));
  std::vector<Value> fields;
  for (size_t i = 0; i < tuple->fields.size(); ++i) fields.push_back(RandomValue(tuple->fields[i], seed * 31 + i));
  return Value::MakeTuple(std::move(fields));
}

}  // namespace

std::vector<Value> RandomArguments(const Function& function, uint64_t seed) {
  std::vector<Value> args;
  for (size_t i = 0; i < function->params.size(); ++i) {
    args.push_back(RandomValue(function->params[i]->type_annotation, seed + i));
  }
  return args;
}

}  // namespace collage
