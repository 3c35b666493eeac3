// The op predicate of the xnnpack backend: exactly the calls Compile accepts. Common rules
// (f32 tensors of rank 1 to 4, constants of rank 0 to 4, at least one computed input) are
// here; op-specific ones live with each op family (op_table.h).
#pragma once

#include <string>

#include "ir/expr.h"
#include "ir/type.h"

namespace collage::xnnpack {

// Why the xnnpack backend cannot run this type-checked call, or "" when it can.
std::string UnsupportedReason(const CallNode& call);

// The checked tensor type of `expr` (which the common rules ensure is a tensor).
const TensorTypeNode& TensorTypeOf(const Expr& expr);
bool IsConstant(const Expr& expr);
// `axis` counted from the front, for a tensor of rank `rank` (negative counts from the end).
int64_t NormalizeAxis(int64_t axis, size_t rank);

}  // namespace collage::xnnpack
