#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "pass/standard_passes.h"

namespace collage {
namespace {

class ConstantFolder : public ExprMutator {
 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    const OpDef* op = post->op();
    if (op == nullptr || !op->reference_kernel) return post;
    std::vector<Tensor> inputs;
    for (const Expr& arg : post->args) {
      const auto* constant = As<ConstantNode>(arg);
      if (constant == nullptr) return post;
      inputs.push_back(constant->data);
    }
    const Type result_type = InferType(post);
    std::vector<Tensor> outputs = op->reference_kernel(inputs, post->attrs, result_type);
    if (AsTensorType(result_type)) return MakeConstant(outputs.at(0));
    std::vector<Expr> fields;
    for (Tensor& output : outputs) fields.push_back(MakeConstant(std::move(output)));
    return MakeTuple(std::move(fields));
  }

  Expr RewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& post) override {
    const auto* tuple = As<TupleNode>(post->tuple);
    if (tuple == nullptr) return post;
    const Expr& field = tuple->fields.at(static_cast<size_t>(post->index));
    return field->kind() == ExprKind::kConstant ? field : post;
  }
};

}  // namespace

Function FoldConstantsIn(const Function& function) {
  InferType(function);
  Function folded = Downcast<FunctionNode>(ConstantFolder().Mutate(function));
  InferType(folded);
  return folded;
}

Pass FoldConstant() {
  return Pass::FunctionPass({"FoldConstant", 2}, [](const Function& function, const Module&, const PassContext&) {
    return FoldConstantsIn(function);
  });
}

}  // namespace collage
