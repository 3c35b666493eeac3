#include "pass/inline_composites.h"

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

const FunctionNode* CompositeCallee(const CallNode& call) {
  const auto* callee = As<FunctionNode>(call.callee);
  return callee != nullptr && callee->attrs.Has(attr::kComposite) ? callee : nullptr;
}

class CompositeInliner : public ExprMutator {
 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    const FunctionNode* composite = CompositeCallee(*post);
    if (composite == nullptr) return post;
    std::unordered_map<const ExprNode*, Expr> bindings;
    for (size_t i = 0; i < composite->params.size(); ++i) bindings[composite->params[i].get()] = post->args[i];
    // A Composite function's body may wrap further Composites.
    return VariableBinder(std::move(bindings)).Mutate(CompositeInliner().Mutate(composite->body));
  }
};

// Rewrites the partitions called from @main.
class PartitionInliner : public ExprMutator {
 public:
  explicit PartitionInliner(const std::function<bool(const std::string&)>& labels_only) : labels_only_(labels_only) {}

 protected:
  Expr RewriteFunction(const Function& /*pre*/, const Function& post) override {
    if (!post->attrs.Has(attr::kCompiler) || !labels_only_(post->attrs.GetString(attr::kCompiler))) return post;
    return InlineCompositeCalls(post);
  }

 private:
  const std::function<bool(const std::string&)>& labels_only_;
};

}  // namespace

Function InlineCompositeCalls(const Function& function) {
  const Expr body = CompositeInliner().Mutate(function->body);
  if (body == function->body) return function;
  return MakeFunction(function->params, body, function->attrs);
}

Module InlineCompositeCallsOfPartitions(const Module& module,
                                        const std::function<bool(const std::string& backend)>& labels_only) {
  const Function& main = module.main();
  const Expr body = PartitionInliner(labels_only).Mutate(main->body);
  if (body == main->body) return module;
  Module inlined = module;
  inlined.Add("main", MakeFunction(main->params, body, main->attrs));
  return inlined;
}

}  // namespace collage
