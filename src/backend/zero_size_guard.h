// Tensors with no elements at the backend boundary. Operator libraries and graph runtimes
// divide by extents when they block a problem (a matrix product with no rows or an empty inner
// dimension has killed a process with SIGFPE inside a library), so a call that reads or
// writes a zero-size tensor is offered only to the backends that run every op: the universal
// fallbacks, whose kernels loop over extents and so compute such calls (a product over an
// empty inner dimension is zeros).
#pragma once

#include "backend/backend.h"

namespace collage {

// True when an argument or the result of `call` (a type-checked call) is or holds a tensor
// with no elements.
bool TouchesZeroSizeTensor(const CallNode& call);

// `backend`'s support declaration, unchanged for a backend that runs every op; for any other,
// its op predicate and its patterns' predicates refuse calls that touch zero-size tensors.
// Placement (greedy and Collage's) reads declarations through this.
SupportDeclaration GuardedSupport(const Backend& backend);

}  // namespace collage
