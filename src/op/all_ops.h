// Registration entry points of the op groups; all_ops.cc calls every one of them.
#pragma once

namespace collage {

class OpRegistry;

void RegisterAllOps(OpRegistry& registry);

// One per file under src/op/ that defines ops.
void RegisterElementwiseOps(OpRegistry& registry);  // elementwise.cc: unary, binary, compare, where, cast, clip
void RegisterReductionOps(OpRegistry& registry);    // reduction.cc: sum, mean, max, min
void RegisterTransformOps(OpRegistry& registry);    // transform.cc: reshape, transpose, concat, slice, ...
void RegisterNNOps(OpRegistry& registry);           // nn.cc: conv, dense, matmul, norms, softmax, pools, pad
void RegisterImageOps(OpRegistry& registry);        // image.cc: resize

}  // namespace collage
