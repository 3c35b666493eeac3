#include "op/all_ops.h"

#include "ir/op_registry.h"

namespace collage {

void RegisterAllOps(OpRegistry& registry) {
  RegisterElementwiseOps(registry);
  RegisterReductionOps(registry);
  RegisterTransformOps(registry);
  RegisterNNOps(registry);
  RegisterConvolutionOps(registry);
  RegisterDenseOps(registry);
  RegisterNormalizationOps(registry);
  RegisterAttentionOps(registry);
  RegisterSqueezeExcitationOps(registry);
  RegisterPoolingOps(registry);
  RegisterImageOps(registry);
  RegisterIndexingOps(registry);
  RegisterOrderingOps(registry);
  RegisterEinsumOps(registry);
  RegisterLinearAlgebraOps(registry);
}

OpRegistry& OpRegistry::Global() {
  static OpRegistry* registry = [] {
    auto* created = new OpRegistry();
    RegisterAllOps(*created);
    return created;
  }();
  return *registry;
}

Op GetOp(const std::string& name) { return OpRegistry::Global().GetOpNode(name); }

Call CallOp(const std::string& name, std::vector<Expr> args, const Attrs& attrs) {
  const OpDef& op = OpRegistry::Global().Get(name);
  return MakeCall(GetOp(name), std::move(args), NormalizeAttrs(op, attrs));
}

}  // namespace collage
