// Builds typed IR expressions during import, folding constant computations as it goes.
//
// Every expression the builder returns has its checked type set, so converters can read the
// shapes of their operands. A call whose arguments are all constants is evaluated at once
// with the op's reference kernel and replaced by its constant result; this is how the shape
// computations torch emits (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, Range,
// ConstantOfShape, Equal/Where on shapes) become static. Results larger than the byte limit
// are not folded but kept as calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "ir/type.h"
#include "support/tensor.h"

namespace collage {

class FoldingBuilder {
 public:
  explicit FoldingBuilder(int64_t max_folded_bytes) : max_folded_bytes_(max_folded_bytes) {}

  // A call to a registered op, typed (TypeError when ill-typed) and folded when possible.
  Expr Call(const std::string& op_name, std::vector<Expr> args, const Attrs& attrs = {});
  Expr Constant(Tensor value);
  Var Variable(const std::string& name, Type type);
  // Field `index` of a tuple-typed expression; a field of a literal tuple is returned directly.
  Expr TupleItem(const Expr& tuple, int index);
  Expr Tuple(std::vector<Expr> fields);

  int64_t max_folded_bytes() const { return max_folded_bytes_; }

 private:
  int64_t max_folded_bytes_;
};

// The value of a constant expression; nullptr for any other expression.
const Tensor* ConstantValue(const Expr& expr);
// The checked tensor type of a typed expression; throws Error when it is not a tensor.
const TensorTypeNode& TensorTypeOf(const Expr& expr);

}  // namespace collage
