#include "pass/inline_composites.h"

#include "ir/visitor.h"
#include "pass/inline_calls.h"

namespace collage {
namespace {

bool IsComposite(const FunctionNode& callee) { return callee.attrs.Has(attr::kComposite); }

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
  const Expr body = InlineCalls(function->body, IsComposite);
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
