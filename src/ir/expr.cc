#include "ir/expr.h"

#include "ir/op_registry.h"

namespace collage {

OpNode::OpNode(const OpDef* def) : ExprNode(ExprKind::kOp), def(def) {}

const std::string& OpNode::name() const { return def->name; }

const OpDef* CallNode::op() const {
  const OpNode* op_node = As<OpNode>(callee);
  return op_node ? op_node->def : nullptr;
}

Var MakeVar(std::string name_hint, Type type_annotation) {
  return std::make_shared<VarNode>(std::move(name_hint), std::move(type_annotation));
}

Constant MakeConstant(Tensor data) {
  Check(data.defined(), "MakeConstant: undefined tensor");
  return std::make_shared<ConstantNode>(std::move(data));
}

Call MakeCall(Expr callee, std::vector<Expr> args, Attrs attrs) {
  Check(callee != nullptr, "MakeCall: null callee");
  Check(callee->kind() == ExprKind::kOp || callee->kind() == ExprKind::kFunction,
        "MakeCall: the callee must be an op or a function, not a " + DescribeExpr(*callee));
  for (const Expr& arg : args) Check(arg != nullptr, "MakeCall: null argument");
  return std::make_shared<CallNode>(std::move(callee), std::move(args), std::move(attrs));
}

Tuple MakeTuple(std::vector<Expr> fields) {
  for (const Expr& field : fields) Check(field != nullptr, "MakeTuple: null field");
  return std::make_shared<TupleNode>(std::move(fields));
}

TupleGetItem MakeTupleGetItem(Expr tuple, int index) {
  Check(tuple != nullptr, "MakeTupleGetItem: null tuple");
  Check(index >= 0, "MakeTupleGetItem: negative index");
  return std::make_shared<TupleGetItemNode>(std::move(tuple), index);
}

Function MakeFunction(std::vector<Var> params, Expr body, Attrs attrs) {
  Check(body != nullptr, "MakeFunction: null body");
  return std::make_shared<FunctionNode>(std::move(params), std::move(body), std::move(attrs));
}

void ForEachChild(const ExprNode& node, const std::function<void(const Expr&)>& visit) {
  switch (node.kind()) {
    case ExprKind::kVar:
    case ExprKind::kConstant:
    case ExprKind::kOp:
      return;
    case ExprKind::kCall: {
      const auto& call = static_cast<const CallNode&>(node);
      visit(call.callee);
      for (const Expr& arg : call.args) visit(arg);
      return;
    }
    case ExprKind::kTuple:
      for (const Expr& field : static_cast<const TupleNode&>(node).fields) visit(field);
      return;
    case ExprKind::kTupleGetItem:
      visit(static_cast<const TupleGetItemNode&>(node).tuple);
      return;
    case ExprKind::kFunction: {
      const auto& function = static_cast<const FunctionNode&>(node);
      for (const Var& param : function.params) visit(param);
      visit(function.body);
      return;
    }
  }
}

std::vector<Expr> Children(const ExprNode& node) {
  std::vector<Expr> children;
  ForEachChild(node, [&](const Expr& child) { children.push_back(child); });
  return children;
}

const CallNode* AsCallOf(const Expr& expr, std::string_view op_name) {
  const auto* call = As<CallNode>(expr);
  const OpDef* op = call != nullptr ? call->op() : nullptr;
  return op != nullptr && op->name == op_name ? call : nullptr;
}

std::string DescribeExpr(const ExprNode& node) {
  switch (node.kind()) {
    case ExprKind::kVar: return "variable %" + static_cast<const VarNode&>(node).name_hint;
    case ExprKind::kConstant: return "constant";
    case ExprKind::kOp: return "op " + static_cast<const OpNode&>(node).name();
    case ExprKind::kCall: {
      const auto& call = static_cast<const CallNode&>(node);
      if (const OpDef* op = call.op()) return "call to " + op->name;
      const auto* function = As<FunctionNode>(call.callee);
      if (function && function->attrs.Has(attr::kComposite)) {
        return "call to composite " + function->attrs.GetString(attr::kComposite);
      }
      return "call to a function";
    }
    case ExprKind::kTuple: return "tuple";
    case ExprKind::kTupleGetItem:
      return "tuple projection ." + std::to_string(static_cast<const TupleGetItemNode&>(node).index);
    case ExprKind::kFunction: return "function";
  }
  return "expression";
}

}  // namespace collage
