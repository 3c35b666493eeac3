// The standard module-level rewrites run before partitioning. Each preserves
// the reference interpreter's outputs; tests check that on random inputs.
#pragma once

#include "pass/pass.h"

namespace collage {

// Type-checks every function (fills in checked types). opt level 0.
Pass InferTypePass();
// Replaces every op call whose arguments are all constants by the constant the reference
// kernel computes; projections of constant tuples fold too. opt level 2.
Pass FoldConstant();
// The folding FoldConstant does, on one function (returned type-checked).
Function FoldConstantsIn(const Function& function);
// nn.batch_norm folded into the weights of a preceding conv2d / dense (plus a bias) when
// that producer has no other user and its weights are constants, otherwise rewritten as
// multiply + add; nn.dropout removed. Ends with FoldConstant's folding. opt level 0.
Pass SimplifyInference();
// Zero-width nn.pad calls removed; zero padding of the spatial axes folded into the
// nn.conv2d or nn.avg_pool2d that reads it (the pool then counts padding in its averages).
// opt level 0.
Pass FoldPadding();
// Merges op calls with the same op, attributes and arguments, and identical constants.
// opt level 2.
Pass EliminateCommonSubexpr();
// Calls to FuseOps groups written in the input (Primitive functions that are neither
// partitions nor pattern matches) become the ops of the group: placement forms its own
// groups, per backend. opt level 0.
Pass InlinePrimitiveGroups();
// Projections of tuples built in the graph are replaced by the field, so unused fields
// become unreachable and disappear. opt level 1.
Pass DeadCodeElimination();

// What runs between import and placement, in this order: InferTypePass,
// InlinePrimitiveGroups, SimplifyInference, FoldPadding, FoldConstant, EliminateCommonSubexpr,
// DeadCodeElimination, InferTypePass.
Pass StandardPipeline();

}  // namespace collage
