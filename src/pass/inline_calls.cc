#include "pass/inline_calls.h"

#include <unordered_map>

#include "ir/visitor.h"

namespace collage {
namespace {

// Replaces the given variables by their bound values.
class VariableBinder : public ExprMutator {
 public:
  explicit VariableBinder(std::unordered_map<const ExprNode*, Expr> bindings) : bindings_(std::move(bindings)) {}

 protected:
  Expr RewriteVar(const Var& pre, const Var& post) override {
    const auto bound = bindings_.find(pre.get());
    return bound == bindings_.end() ? post : bound->second;
  }

 private:
  std::unordered_map<const ExprNode*, Expr> bindings_;
};

class CallInliner : public ExprMutator {
 public:
  explicit CallInliner(const CalleePredicate& inlined) : inlined_(inlined) {}

 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    const auto* callee = As<FunctionNode>(post->callee);
    if (callee == nullptr || !inlined_(*callee)) return post;
    std::unordered_map<const ExprNode*, Expr> bindings;
    for (size_t i = 0; i < callee->params.size(); ++i) bindings[callee->params[i].get()] = post->args[i];
    return VariableBinder(std::move(bindings)).Mutate(CallInliner(inlined_).Mutate(callee->body));
  }

 private:
  const CalleePredicate& inlined_;
};

}  // namespace

Expr InlineCalls(const Expr& expr, const CalleePredicate& inlined) { return CallInliner(inlined).Mutate(expr); }

}  // namespace collage
