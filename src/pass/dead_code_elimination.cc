#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"

namespace collage {
namespace {

// (a, b, c).1 -> b: the projection no longer keeps the tuple, and with it a and c, alive.
class TupleProjectionForwarder : public ExprMutator {
 protected:
  Expr RewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& post) override {
    const auto* tuple = As<TupleNode>(post->tuple);
    return tuple != nullptr ? tuple->fields.at(static_cast<size_t>(post->index)) : post;
  }
};

}  // namespace

Pass DeadCodeElimination() {
  return Pass::FunctionPass({"DeadCodeElimination", 1}, [](const Function& function, const Module&, const PassContext&) {
    Function result = Downcast<FunctionNode>(TupleProjectionForwarder().Mutate(function));
    InferType(result);
    return result;
  });
}

}  // namespace collage
