// Graph traversal: post-order listing, a memoized visitor and a memoized mutator.
// All three are iterative (an explicit stack), so graph depth is bounded by memory,
// not by the call stack. Each node is visited once however many users it has.
#pragma once

#include <functional>
#include <vector>

#include "ir/expr.h"
#include "support/pointer_map.h"

namespace collage {

// Every node reachable from `root`, each once, children before their users, children in
// canonical order (see Children). With `enter_functions` false, a nested function node is
// listed but its parameters and body are not (the root itself is always entered).
std::vector<Expr> PostOrder(const Expr& root, bool enter_functions = true);
// PostOrder without the nodes for which `leave_out` holds and without walking below them
// (their children are listed only when reachable another way).
std::vector<Expr> PostOrderLeavingOut(const Expr& root, bool enter_functions,
                                      const std::function<bool(const ExprNode&)>& leave_out);

// Visits each reachable node once in post-order; override the hooks you need.
class ExprVisitor {
 public:
  virtual ~ExprVisitor() = default;
  void Visit(const Expr& root);

 protected:
  virtual void VisitVar(const Var&) {}
  virtual void VisitConstant(const Constant&) {}
  virtual void VisitOp(const Op&) {}
  virtual void VisitCall(const Call&) {}
  virtual void VisitTuple(const Tuple&) {}
  virtual void VisitTupleGetItem(const TupleGetItem&) {}
  virtual void VisitFunction(const Function&) {}
};

// Rebuilds a graph bottom-up. For each node (children first), `post` is the node rebuilt
// on the already-rewritten children (the original node itself when no child changed);
// the hook returns the replacement. Results are memoized, so sharing is preserved.
class ExprMutator {
 public:
  virtual ~ExprMutator() = default;
  Expr Mutate(const Expr& root);

 protected:
  // The rewritten form of a node already visited (or the node itself if never visited).
  Expr Rewritten(const Expr& original) const;

  virtual Expr RewriteVar(const Var& /*pre*/, const Var& post) { return post; }
  virtual Expr RewriteConstant(const Constant& /*pre*/, const Constant& post) { return post; }
  virtual Expr RewriteOp(const Op& /*pre*/, const Op& post) { return post; }
  virtual Expr RewriteCall(const Call& /*pre*/, const Call& post) { return post; }
  virtual Expr RewriteTuple(const Tuple& /*pre*/, const Tuple& post) { return post; }
  virtual Expr RewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& post) { return post; }
  virtual Expr RewriteFunction(const Function& /*pre*/, const Function& post) { return post; }

 private:
  Expr Dispatch(const Expr& pre, const Expr& post);
  PointerMap<Expr> rewritten_;
};

// `node` with its children (in Children order) replaced; returns `node` itself when every
// child is pointer-identical. Attributes and source location are kept.
Expr WithChildren(const Expr& node, const std::vector<Expr>& children);

}  // namespace collage
