#include "backend/zero_size_guard.h"

#include "ir/type.h"

namespace collage {
namespace {

bool HoldsZeroSizeTensor(const Type& type) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) return NumElements(tensor->shape) == 0;
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    for (const Type& field : tuple->fields) {
      if (HoldsZeroSizeTensor(field)) return true;
    }
  }
  return false;
}

bool MatchTouchesZeroSizeTensor(const PatternMatch& match) {
  for (const Expr& expr : match.inside) {
    const auto* call = As<CallNode>(expr);
    if (call != nullptr && TouchesZeroSizeTensor(*call)) return true;
  }
  return false;
}

}  // namespace

bool TouchesZeroSizeTensor(const CallNode& call) {
  if (HoldsZeroSizeTensor(call.checked_type())) return true;
  for (const Expr& argument : call.args) {
    if (HoldsZeroSizeTensor(argument->checked_type())) return true;
  }
  return false;
}

SupportDeclaration GuardedSupport(const Backend& backend) {
  SupportDeclaration declaration = backend.Support();
  if (backend.runs_every_op()) return declaration;
  if (declaration.supports_op) {
    declaration.supports_op = [supports = std::move(declaration.supports_op)](const CallNode& call) {
      return !TouchesZeroSizeTensor(call) && supports(call);
    };
  }
  for (BackendPattern& entry : declaration.patterns) {
    entry.predicate = [accepts = std::move(entry.predicate)](const PatternMatch& match) {
      return !MatchTouchesZeroSizeTensor(match) && (!accepts || accepts(match));
    };
  }
  return declaration;
}

}  // namespace collage
