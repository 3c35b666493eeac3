// Type inference: fills in the checked type of every node of a function or module.
// Errors are TypeErrors of one line: "<line:col>: <op>: <what was expected>", where the
// location is the offending node's source location when it came from text.
#pragma once

#include "ir/expr.h"
#include "ir/module.h"

namespace collage {

// Infers types for every node reachable from `expr` and returns the type of `expr`.
// Variables must carry a type annotation. A node already typed is taken as typed, with every
// node below it: nodes are typed children first and never change, so only nodes that a rewrite
// made are inferred.
Type InferType(const Expr& expr);
void InferType(const Module& module);
// Types one node whose operands are already typed (e.g. while building a graph bottom-up),
// sets its checked type and returns it; does not revisit the operands.
Type InferNodeType(const Expr& node);

}  // namespace collage
