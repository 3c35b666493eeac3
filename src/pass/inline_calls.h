// Inlining calls to function literals: a call whose callee a predicate selects becomes the
// callee's body with its parameters bound to the call's arguments. The body is inlined too
// (the predicate applies to the calls inside it), so nested selected calls all disappear.
#pragma once

#include <functional>

#include "ir/expr.h"

namespace collage {

using CalleePredicate = std::function<bool(const FunctionNode& callee)>;

// `expr` with every call (at any depth) to a function literal that `inlined` selects
// replaced by that function's body bound to the call's arguments.
Expr InlineCalls(const Expr& expr, const CalleePredicate& inlined);

}  // namespace collage
