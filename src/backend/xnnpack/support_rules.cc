#include "backend/xnnpack/support_rules.h"

#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/partition_body.h"
#include "ir/op_registry.h"

namespace collage::xnnpack {
namespace {

std::string CheckTensorType(const Type& type, const std::string& what, size_t min_rank) {
  const TensorTypeNode* tensor = AsTensorType(type);
  if (!tensor) return what + " is not a tensor";
  if (tensor->dtype != DType::kF32) {
    return what + " is " + std::string(DTypeName(tensor->dtype)) + ", XNNPACK runs f32 only";
  }
  if (tensor->shape.size() < min_rank || tensor->shape.size() > 4) {
    return what + " has rank " + std::to_string(tensor->shape.size()) + ", expected " + std::to_string(min_rank) +
           " to 4";
  }
  for (int64_t extent : tensor->shape) {
    if (extent < 1) return what + " has an empty dimension";
  }
  return "";
}

std::string CommonReason(const CallNode& call) {
  if (std::string reason = CheckTensorType(call.checked_type(), "the result", 1); !reason.empty()) return reason;
  bool any_computed = false;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const bool constant = IsConstant(call.args[i]);
    any_computed = any_computed || !constant;
    const std::string what = (constant ? "constant argument " : "argument ") + std::to_string(i);
    if (std::string reason = CheckTensorType(call.args[i]->checked_type(), what, constant ? 0 : 1); !reason.empty()) {
      return reason;
    }
  }
  if (!any_computed) return "every argument is a constant (fold constants first)";
  return "";
}

}  // namespace

const TensorTypeNode& TensorTypeOf(const Expr& expr) { return *AsTensorType(expr->checked_type()); }

bool IsConstant(const Expr& expr) { return As<ConstantNode>(ForwardProjections(expr)) != nullptr; }

int64_t NormalizeAxis(int64_t axis, size_t rank) { return axis < 0 ? axis + static_cast<int64_t>(rank) : axis; }

std::string UnsupportedReason(const CallNode& call) {
  const OpDef* op = call.op();
  if (!op) return "calls to functions are not supported (xnnpack declares no pattern table)";
  const OpEntry* entry = FindOp(op->name);
  if (!entry) return op->name + " has no XNNPACK equivalent in this XNNPACK version";
  if (!call.checked_type()) return op->name + " is not type-checked";
  for (const Expr& arg : call.args) {
    if (!arg->checked_type()) return op->name + " has an argument that is not type-checked";
  }
  std::string reason = CommonReason(call);
  if (reason.empty()) reason = entry->rule(call);
  return reason.empty() ? "" : op->name + ": " + reason;
}

}  // namespace collage::xnnpack
