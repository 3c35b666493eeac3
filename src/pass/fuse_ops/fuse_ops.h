// FuseOps: the classic greedy operator fusion. Groups ops into kernels along
// the post-dominator tree and outlines each group as a call to a function with attribute
// Primitive=1. Every op call ends up in exactly one primitive function. At opt level 0
// nothing fuses: each op gets its own primitive function.
//
// Option "FuseOps.max_depth" (int, default 256) bounds the number of nodes in a group.
#pragma once

#include "pass/pass.h"

namespace collage {

Pass FuseOps();
// The same on one function, for callers outside the pass manager.
Function FuseOpsIn(const Function& function, bool fuse, int max_fuse_depth);

}  // namespace collage
