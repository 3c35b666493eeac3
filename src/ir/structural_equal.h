// Structural equality and hashing of expressions and modules.
//
// Two graphs are equal when they have the same shape as DAGs: the same node kinds, ops,
// attributes, variable types, constant dtypes/shapes (and values, unless told otherwise),
// tuple indices, and the same sharing of nodes. Variable names and source locations are
// ignored. Equal graphs hash equal; constant values are hashed only on request, because
// kernels and costs usually depend on shapes only.
// Both run in time linear in the graph size, iteratively.
#pragma once

#include <cstddef>

#include "ir/expr.h"
#include "ir/module.h"

namespace collage {

struct StructuralEqualOptions {
  bool compare_constant_values = true;
};

struct StructuralHashOptions {
  bool hash_constant_values = false;
};

bool StructuralEqual(const Expr& lhs, const Expr& rhs, const StructuralEqualOptions& options = {});
bool StructuralEqual(const Module& lhs, const Module& rhs, const StructuralEqualOptions& options = {});

size_t StructuralHash(const Expr& expr, const StructuralHashOptions& options = {});
size_t StructuralHash(const Module& module, const StructuralHashOptions& options = {});

}  // namespace collage
