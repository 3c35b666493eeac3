#include "runtime/tensor_memory_check.h"

#include <cstdio>
#include <optional>

#include "ir/type.h"
#include "ir/visitor.h"
#include "support/error.h"
#include "support/physical_memory.h"

namespace collage {
namespace {

void CheckValue(const ExprNode& node, const Type& type, double memory, const std::string& model_path) {
  if (!type || node.kind() == ExprKind::kOp || node.kind() == ExprKind::kFunction) return;
  const double bytes = TypeBytes(type);
  if (bytes <= memory) return;
  const std::string where = node.location().IsKnown() ? node.location().ToString() : model_path;
  char bytes_text[32];
  std::snprintf(bytes_text, sizeof bytes_text, "%.0f", bytes);
  throw Error(where + ": " + DescribeExpr(node) + ": " + TypeToString(type) + " needs " + bytes_text +
              " bytes, more than this machine's memory (" + std::to_string(static_cast<size_t>(memory)) + " bytes)");
}

}  // namespace

void CheckTensorsFitInMemory(const Function& function, const std::string& model_path) {
  const std::optional<size_t> memory = PhysicalMemoryBytes();
  if (!memory) return;
  const double limit = static_cast<double>(*memory);
  for (const Var& param : function->params) {
    CheckValue(*param, param->checked_type() ? param->checked_type() : param->type_annotation, limit, model_path);
  }
  for (const Expr& node : PostOrder(function->body, false)) CheckValue(*node, node->checked_type(), limit, model_path);
}

}  // namespace collage
