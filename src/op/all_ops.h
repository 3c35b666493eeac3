// Registration entry points of the op groups; all_ops.cc calls every one of them.
#pragma once

namespace collage {

class OpRegistry;

void RegisterAllOps(OpRegistry& registry);

// One per file under src/op/ that defines ops.
void RegisterElementwiseOps(OpRegistry& registry);  // elementwise.cc: unary, binary, compare, where, cast, clip
void RegisterReductionOps(OpRegistry& registry);    // reduction.cc: sum, mean, max, min
void RegisterTransformOps(OpRegistry& registry);    // transform.cc: reshape, transpose, concat, slice, ...
void RegisterNNOps(OpRegistry& registry);           // nn.cc: pad
void RegisterConvolutionOps(OpRegistry& registry);  // nn_convolution.cc: conv2d, conv2d_transpose
void RegisterDenseOps(OpRegistry& registry);        // nn_dense.cc: dense, matmul, batch_matmul, bias_add
void RegisterNormalizationOps(OpRegistry& registry);  // nn_normalization.cc: batch_norm, layer/rms_norm, softmax
void RegisterAttentionOps(OpRegistry& registry);    // nn_attention.cc: masked_softmax, attention
void RegisterSqueezeExcitationOps(OpRegistry& registry);  // nn_squeeze_excitation.cc: squeeze_excitation
void RegisterPoolingOps(OpRegistry& registry);      // nn_pooling.cc: max/avg, global and adaptive pools
void RegisterImageOps(OpRegistry& registry);        // image.cc: resize, grid_sample
void RegisterIndexingOps(OpRegistry& registry);     // indexing.cc: gather/scatter elements and nd, one_hot
void RegisterOrderingOps(OpRegistry& registry);     // ordering.cc: topk, cumsum, trilu
void RegisterEinsumOps(OpRegistry& registry);       // einsum.cc: einsum
void RegisterLinearAlgebraOps(OpRegistry& registry);  // linear_algebra.cc: det

}  // namespace collage
