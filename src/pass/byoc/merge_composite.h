// MergeComposite: every accepted match of a backend's pattern table is wrapped in
// a function with Composite=<label>, called where the match's root was, so AnnotateTarget
// gives the whole match to that backend as one unit.
//
// Which matches are taken, when matches overlap (the priority rule):
//   1. backends in the order given (the greedy priority order): an earlier backend's matches
//      claim their nodes first;
//   2. within one backend's table, larger matches (more nodes inside) first, so
//      conv2d+bias+relu is preferred to conv2d alone; equal sizes go by table order, then by
//      the root's post-order position;
//   3. a match is skipped when a node inside it is already claimed, or when a node inside it
//      other than the root is used outside the match (wrapping it would need two outputs).
// The composite function's parameters are the match's inputs in pattern order (constants
// included), typed like them. Nested functions are left alone.
#pragma once

#include <vector>

#include "declaration/support_declaration.h"
#include "pass/pass.h"

namespace collage {

// The rewritten body of a type-checked function; the result needs InferType.
Expr MergeCompositeInBody(const Expr& body, const std::vector<SupportDeclaration>& backends_in_priority_order);

// MergeCompositeInBody over every function of a module, types inferred.
Pass MergeComposite(std::vector<SupportDeclaration> backends_in_priority_order);

}  // namespace collage
