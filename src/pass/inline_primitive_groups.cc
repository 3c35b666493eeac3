#include "ir/type_inference.h"
#include "pass/inline_calls.h"
#include "pass/standard_passes.h"

namespace collage {
namespace {

// A FuseOps group: Primitive, but neither a partition (Compiler) nor a pattern match (Composite).
bool IsPrimitiveGroup(const FunctionNode& callee) {
  return callee.attrs.Has(attr::kPrimitive) && !callee.attrs.Has(attr::kCompiler) &&
         !callee.attrs.Has(attr::kComposite);
}

}  // namespace

Pass InlinePrimitiveGroups() {
  return Pass::FunctionPass({"InlinePrimitiveGroups", 0}, [](const Function& function, const Module&,
                                                            const PassContext&) {
    const Expr body = InlineCalls(function->body, IsPrimitiveGroup);
    if (body == function->body) return function;
    Function result = MakeFunction(function->params, body, function->attrs);
    InferType(result);
    return result;
  });
}

}  // namespace collage
