#include "ir/type_inference.h"

#include <unordered_map>

#include "ir/visitor.h"
#include "ir/op_registry.h"

namespace collage {
namespace {

// Tuple types nest at most this deep, as deep as the parser lets a type be written; the
// run time builds and flattens tuple values recursively.
constexpr size_t kMaxTupleNesting = 256;

// How many tuple types nest in `type` along its deepest path, or a number above `limit` once it
// is known to exceed it. Shared sub-types are walked again only when reached deeper.
size_t TupleNesting(const Type& type, size_t limit) {
  std::unordered_map<const TypeNode*, size_t> deepest_visit;
  std::vector<std::pair<const Type*, size_t>> pending = {{&type, 0}};
  size_t nesting = 0;
  while (!pending.empty()) {
    const auto [node, depth] = pending.back();
    pending.pop_back();
    const TupleTypeNode* tuple = AsTupleType(*node);
    if (tuple == nullptr) continue;
    auto [visit, first] = deepest_visit.emplace(tuple, depth + 1);
    if (!first && visit->second >= depth + 1) continue;
    visit->second = depth + 1;
    nesting = std::max(nesting, depth + 1);
    if (nesting > limit) return nesting;
    for (const Type& field : tuple->fields) pending.emplace_back(&field, depth + 1);
  }
  return nesting;
}

[[noreturn]] void Fail(const ExprNode& node, const std::string& message) {
  const std::string where = node.location().ToString();
  throw TypeError(where.empty() ? message : where + ": " + message);
}

const Type& TypeOf(const ExprNode& user, const Expr& operand) {
  if (!operand->checked_type()) Fail(user, DescribeExpr(*operand) + " has no type");
  return operand->checked_type();
}

Type InferOpCall(const CallNode& call, const OpDef& op) {
  const int arity = static_cast<int>(call.args.size());
  if (arity < op.min_args || (op.max_args >= 0 && arity > op.max_args)) {
    std::string expected = op.max_args < 0           ? "at least " + std::to_string(op.min_args)
                           : op.min_args == op.max_args ? std::to_string(op.min_args)
                                                        : std::to_string(op.min_args) + " to " + std::to_string(op.max_args);
    Fail(call, op.name + ": expected " + expected + " arguments, got " + std::to_string(arity));
  }
  std::vector<Type> arg_types;
  arg_types.reserve(call.args.size());
  for (const Expr& arg : call.args) arg_types.push_back(TypeOf(call, arg));
  try {
    Attrs attrs = NormalizeAttrs(op, call.attrs);
    return op.infer_type(arg_types, attrs);
  } catch (const TypeError& error) {
    const std::string message = error.what();
    // NormalizeAttrs already names the op.
    Fail(call, message.rfind(op.name + ":", 0) == 0 ? message : op.name + ": " + message);
  }
}

Type InferFunctionCall(const CallNode& call, const FunctionNode& callee) {
  const FuncTypeNode* func_type = AsFuncType(TypeOf(call, call.callee));
  if (func_type->params.size() != call.args.size()) {
    Fail(call, "function call: expected " + std::to_string(func_type->params.size()) + " arguments, got " +
                   std::to_string(call.args.size()));
  }
  for (size_t i = 0; i < call.args.size(); ++i) {
    const Type& arg_type = TypeOf(call, call.args[i]);
    if (!TypeEqual(arg_type, func_type->params[i])) {
      Fail(call, "function call: argument " + std::to_string(i) + " (%" + callee.params[i]->name_hint + ") expects " +
                     TypeToString(func_type->params[i]) + ", got " + TypeToString(arg_type));
    }
  }
  return func_type->result;
}

Type InferNode(const ExprNode& node) {
  switch (node.kind()) {
    case ExprKind::kVar: {
      const auto& var = static_cast<const VarNode&>(node);
      if (!var.type_annotation) Fail(node, "variable %" + var.name_hint + " has no type annotation");
      return var.type_annotation;
    }
    case ExprKind::kConstant: {
      const Tensor& data = static_cast<const ConstantNode&>(node).data;
      return TensorType(data.dtype(), data.shape());
    }
    case ExprKind::kOp:
      return nullptr;  // ops are typed at their call sites
    case ExprKind::kCall: {
      const auto& call = static_cast<const CallNode&>(node);
      if (const OpDef* op = call.op()) return InferOpCall(call, *op);
      return InferFunctionCall(call, *As<FunctionNode>(call.callee));
    }
    case ExprKind::kTuple: {
      std::vector<Type> fields;
      for (const Expr& field : static_cast<const TupleNode&>(node).fields) fields.push_back(TypeOf(node, field));
      Type tuple = TupleType(std::move(fields));
      if (TupleNesting(tuple, kMaxTupleNesting) > kMaxTupleNesting) {
        Fail(node, "tuple nested deeper than " + std::to_string(kMaxTupleNesting) + " levels");
      }
      return tuple;
    }
    case ExprKind::kTupleGetItem: {
      const auto& item = static_cast<const TupleGetItemNode&>(node);
      const TupleTypeNode* tuple = AsTupleType(TypeOf(node, item.tuple));
      if (tuple == nullptr) Fail(node, "tuple projection ." + std::to_string(item.index) + " of a non-tuple " +
                                           TypeToString(item.tuple->checked_type()));
      if (item.index >= static_cast<int>(tuple->fields.size())) {
        Fail(node, "tuple projection ." + std::to_string(item.index) + " out of range for a tuple of " +
                       std::to_string(tuple->fields.size()) + " fields");
      }
      return tuple->fields[static_cast<size_t>(item.index)];
    }
    case ExprKind::kFunction: {
      const auto& function = static_cast<const FunctionNode&>(node);
      std::vector<Type> params;
      for (const Var& param : function.params) params.push_back(TypeOf(node, param));
      return FuncType(std::move(params), TypeOf(node, function.body));
    }
  }
  return nullptr;
}

}  // namespace

Type InferType(const Expr& expr) {
  // Nodes are typed children first and never change, so every node below a typed node is typed
  // too: after a rewrite only the new nodes are visited.
  auto typed = [](const ExprNode& node) { return node.checked_type() != nullptr; };
  for (const Expr& node : PostOrderLeavingOut(expr, /*enter_functions=*/true, typed)) {
    node->set_checked_type(InferNode(*node));
  }
  return expr->checked_type();
}

Type InferNodeType(const Expr& node) {
  node->set_checked_type(InferNode(*node));
  return node->checked_type();
}

void InferType(const Module& module) {
  for (const auto& [name, function] : module.functions()) InferType(function);
}

}  // namespace collage
