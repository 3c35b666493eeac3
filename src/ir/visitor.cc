#include "ir/visitor.h"

#include "support/pointer_set.h"

namespace collage {

namespace {

// The number of children ForEachChild visits, and the i-th of them, in its order.
size_t ChildCount(const ExprNode& node) {
  switch (node.kind()) {
    case ExprKind::kCall: return 1 + static_cast<const CallNode&>(node).args.size();
    case ExprKind::kTuple: return static_cast<const TupleNode&>(node).fields.size();
    case ExprKind::kTupleGetItem: return 1;
    case ExprKind::kFunction: return static_cast<const FunctionNode&>(node).params.size() + 1;
    default: return 0;
  }
}

// Calls visit(child) with the i-th child that ForEachChild visits, as the node holds it (an Expr,
// or a Var for a function's parameter): no reference count changes unless `visit` copies it.
template <typename Visit>
void VisitChildAt(const ExprNode& node, size_t i, Visit visit) {
  switch (node.kind()) {
    case ExprKind::kCall: {
      const auto& call = static_cast<const CallNode&>(node);
      return i == 0 ? visit(call.callee) : visit(call.args[i - 1]);
    }
    case ExprKind::kTuple: return visit(static_cast<const TupleNode&>(node).fields[i]);
    case ExprKind::kTupleGetItem: return visit(static_cast<const TupleGetItemNode&>(node).tuple);
    default: {
      const auto& function = static_cast<const FunctionNode&>(node);
      return i < function.params.size() ? visit(function.params[i]) : visit(function.body);
    }
  }
}

}  // namespace

std::vector<Expr> PostOrder(const Expr& root, bool enter_functions) {
  return PostOrderLeavingOut(root, enter_functions, nullptr);
}

std::vector<Expr> PostOrderLeavingOut(const Expr& root, bool enter_functions,
                                      const std::function<bool(const ExprNode&)>& leave_out) {
  std::vector<Expr> order;
  PointerSet done;
  // The children are read from the node one at a time, so a frame allocates nothing.
  struct Frame {
    Expr node;
    size_t child_count;
    size_t next_child = 0;
  };
  std::vector<Frame> stack;
  // Copies the node (one reference count increment) only when it is new.
  auto push = [&](const auto& node) {
    if (!done.Insert(node.get()) || (leave_out && leave_out(*node))) return;
    const bool opaque = !enter_functions && node != root && node->kind() == ExprKind::kFunction;
    stack.push_back(Frame{Expr(node), opaque ? 0 : ChildCount(*node)});
  };
  push(root);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_child < top.child_count) {
      const ExprNode& parent = *top.node;
      // `push` may reallocate `stack`: `top` is not used after it.
      VisitChildAt(parent, top.next_child++, push);
      continue;
    }
    order.push_back(std::move(top.node));
    stack.pop_back();
  }
  return order;
}

void ExprVisitor::Visit(const Expr& root) {
  for (const Expr& node : PostOrder(root)) {
    switch (node->kind()) {
      case ExprKind::kVar: VisitVar(Downcast<VarNode>(node)); break;
      case ExprKind::kConstant: VisitConstant(Downcast<ConstantNode>(node)); break;
      case ExprKind::kOp: VisitOp(Downcast<OpNode>(node)); break;
      case ExprKind::kCall: VisitCall(Downcast<CallNode>(node)); break;
      case ExprKind::kTuple: VisitTuple(Downcast<TupleNode>(node)); break;
      case ExprKind::kTupleGetItem: VisitTupleGetItem(Downcast<TupleGetItemNode>(node)); break;
      case ExprKind::kFunction: VisitFunction(Downcast<FunctionNode>(node)); break;
    }
  }
}

Expr ExprMutator::Rewritten(const Expr& original) const {
  const Expr* rewritten = rewritten_.Find(original.get());
  return rewritten == nullptr ? original : *rewritten;
}

Expr ExprMutator::Mutate(const Expr& root) {
  const std::vector<Expr> order = PostOrder(root);
  rewritten_.Reserve(rewritten_.size() + order.size());
  std::vector<Expr> children;
  for (const Expr& node : order) {
    if (rewritten_.Contains(node.get())) continue;
    children.clear();
    ForEachChild(*node, [&](const Expr& child) { children.push_back(Rewritten(child)); });
    rewritten_[node.get()] = Dispatch(node, WithChildren(node, children));
  }
  return Rewritten(root);
}

Expr ExprMutator::Dispatch(const Expr& pre, const Expr& post) {
  switch (pre->kind()) {
    case ExprKind::kVar: return RewriteVar(Downcast<VarNode>(pre), Downcast<VarNode>(post));
    case ExprKind::kConstant: return RewriteConstant(Downcast<ConstantNode>(pre), Downcast<ConstantNode>(post));
    case ExprKind::kOp: return RewriteOp(Downcast<OpNode>(pre), Downcast<OpNode>(post));
    case ExprKind::kCall: return RewriteCall(Downcast<CallNode>(pre), Downcast<CallNode>(post));
    case ExprKind::kTuple: return RewriteTuple(Downcast<TupleNode>(pre), Downcast<TupleNode>(post));
    case ExprKind::kTupleGetItem:
      return RewriteTupleGetItem(Downcast<TupleGetItemNode>(pre), Downcast<TupleGetItemNode>(post));
    case ExprKind::kFunction: return RewriteFunction(Downcast<FunctionNode>(pre), Downcast<FunctionNode>(post));
  }
  return post;
}

Expr WithChildren(const Expr& node, const std::vector<Expr>& children) {
  size_t count = 0;
  bool changed = false;
  ForEachChild(*node, [&](const Expr& child) {
    changed |= count >= children.size() || children[count] != child;
    ++count;
  });
  Check(count == children.size(), "WithChildren: child count mismatch");
  if (!changed) return node;

  Expr rebuilt;
  switch (node->kind()) {
    case ExprKind::kVar:
    case ExprKind::kConstant:
    case ExprKind::kOp:
      return node;
    case ExprKind::kCall: {
      const auto* call = As<CallNode>(node);
      rebuilt = MakeCall(children[0], std::vector<Expr>(children.begin() + 1, children.end()), call->attrs);
      break;
    }
    case ExprKind::kTuple:
      rebuilt = MakeTuple(children);
      break;
    case ExprKind::kTupleGetItem:
      rebuilt = MakeTupleGetItem(children[0], As<TupleGetItemNode>(node)->index);
      break;
    case ExprKind::kFunction: {
      const auto* function = As<FunctionNode>(node);
      std::vector<Var> params;
      for (size_t i = 0; i + 1 < children.size(); ++i) {
        Var param = Downcast<VarNode>(children[i]);
        Check(param != nullptr, "WithChildren: a function parameter must stay a variable");
        params.push_back(param);
      }
      rebuilt = MakeFunction(std::move(params), children.back(), function->attrs);
      break;
    }
  }
  rebuilt->set_location(node->location());
  return rebuilt;
}

}  // namespace collage
