// Reading a partition function's body as XNNPACK needs it: projections of built tuples are
// forwarded to the tuple field, results are flattened, and each value's users are counted.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/expr.h"

namespace collage::xnnpack {

// `expr` with TupleGetItem(Tuple(...), i) replaced by field i, repeatedly.
Expr ForwardProjections(const Expr& expr);

// The tensors of the body's result, tuples flattened depth-first, projections forwarded.
std::vector<Expr> FlattenResults(const Expr& body);

// How often each node is used: as an argument of a call (projections forwarded) or as a result.
std::unordered_map<const ExprNode*, int> CountUses(const std::vector<Expr>& post_order,
                                                   const std::vector<Expr>& results);

}  // namespace collage::xnnpack
