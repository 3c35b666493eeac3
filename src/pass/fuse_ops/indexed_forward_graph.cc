#include "pass/fuse_ops/indexed_forward_graph.h"

#include "ir/visitor.h"

namespace collage {
namespace {

bool IsCallee(const Expr& expr) { return expr->kind() == ExprKind::kOp || expr->kind() == ExprKind::kFunction; }

bool SameTensorShape(const Type& lhs, const Type& rhs) {
  const TensorTypeNode* a = AsTensorType(lhs);
  const TensorTypeNode* b = AsTensorType(rhs);
  return a && b && a->shape == b->shape;
}

OpPatternKind NodePattern(const Expr& expr) {
  switch (expr->kind()) {
    case ExprKind::kCall: {
      const OpDef* op = As<CallNode>(expr)->op();
      return op ? op->pattern_kind : OpPatternKind::kOpaque;
    }
    case ExprKind::kConstant: {
      // Scalars are inlined into whatever kernel uses them; other constants stay inputs.
      const Tensor& data = As<ConstantNode>(expr)->data;
      return data.rank() == 0 ? OpPatternKind::kElemWise : OpPatternKind::kOpaque;
    }
    case ExprKind::kTuple:
      return OpPatternKind::kTuple;
    case ExprKind::kTupleGetItem:
      return OpPatternKind::kInjective;
    default:
      return OpPatternKind::kOpaque;
  }
}

}  // namespace

IndexedForwardGraph IndexedForwardGraph::Create(const Expr& body) {
  IndexedForwardGraph graph;
  const std::vector<Expr> order = PostOrder(body, /*enter_functions=*/false);
  graph.index_of.Reserve(order.size());
  for (const Expr& expr : order) {
    if (IsCallee(expr)) continue;
    const size_t index = graph.nodes.size();
    graph.index_of.Insert(expr.get(), index);
    graph.nodes.push_back(Node{expr, index, NodePattern(expr), false, {}});
  }
  graph.nodes.at(graph.index_of.At(body.get())).extern_ref = true;

  for (Node& node : graph.nodes) {
    auto add_edge = [&](const Expr& producer, OpPatternKind pattern) {
      graph.nodes[graph.index_of.At(producer.get())].outputs.push_back(Edge{node.index, pattern});
    };
    switch (node.expr->kind()) {
      case ExprKind::kCall: {
        const auto* call = As<CallNode>(node.expr);
        for (const Expr& arg : call->args) {
          OpPatternKind pattern = node.pattern;
          if (pattern == OpPatternKind::kBroadcast && SameTensorShape(arg->checked_type(), node.expr->checked_type())) {
            pattern = OpPatternKind::kElemWise;
          }
          add_edge(arg, pattern);
        }
        break;
      }
      case ExprKind::kTuple:
        for (const Expr& field : As<TupleNode>(node.expr)->fields) add_edge(field, OpPatternKind::kInjective);
        break;
      case ExprKind::kTupleGetItem:
        add_edge(As<TupleGetItemNode>(node.expr)->tuple, OpPatternKind::kInjective);
        break;
      default:
        break;
    }
  }
  return graph;
}

}  // namespace collage
