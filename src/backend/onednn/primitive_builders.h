// Lowering of each op family to oneDNN primitives, one file per family. Each builder reads
// its inputs through the Lowering (which reorders as needed), adds its steps and defines its
// result; it throws Error ("onednn: ...") for attributes or shapes it does not handle.
#pragma once

#include "backend/onednn/epilogue.h"
#include "backend/onednn/lowering.h"

namespace collage::onednn {

// convolution.cc: nn.conv2d and nn.conv2d_transpose with groups, dilation, asymmetric padding,
// strides (and output padding) and an epilogue.
void LowerConvolution(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue);
// depthwise_post_op.cc: a 1x1 convolution and the 3x3 depthwise convolution that is the only
// reader of its result (through the pointwise epilogue), as one primitive. Whether the pair's
// shapes and attributes allow it:
bool CanFuseDepthwiseAfterPointwise(const Lowering& lowering, const FlatCall& pointwise,
                                    const Epilogue& pointwise_epilogue, const FlatCall& depthwise,
                                    const Epilogue& depthwise_epilogue);
// Adds the fused step and defines the depthwise epilogue's result; false, with nothing added,
// when oneDNN has no optimized kernel for the pair (lower the two separately then).
bool LowerConvolutionWithDepthwise(Lowering& lowering, const FlatCall& pointwise, const Epilogue& pointwise_epilogue,
                                   const FlatCall& depthwise, const Epilogue& depthwise_epilogue);
// matmul.cc: nn.dense, nn.matmul and nn.batch_matmul with an epilogue.
void LowerMatmul(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue);
// pooling.cc: max / average pooling (with ceil_mode, count_include_pad, dilation), global
// pooling and adaptive average pooling to a size that divides the input.
void LowerPooling(Lowering& lowering, const FlatCall& call);
// elementwise.cc: unary ops with an eltwise algorithm; binary arithmetic with broadcasting and
// nn.bias_add, with an epilogue of a per-channel bias (axis 1) and eltwise post-ops. With a
// non-empty epilogue: false, with nothing added, when oneDNN has no optimized kernel for the
// fused primitive (lower the calls separately then).
void LowerEltwise(Lowering& lowering, const FlatCall& call, const EltwiseSpec& spec);
bool LowerBinary(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue = {});
// normalization.cc: nn.softmax, nn.log_softmax, nn.layer_norm, nn.batch_norm.
void LowerNormalization(Lowering& lowering, const FlatCall& call);
// shape.cc: reshape, flatten, squeeze, expand_dims (views of the plain data), transpose,
// concatenate.
void LowerReshape(Lowering& lowering, const FlatCall& call);
void LowerTranspose(Lowering& lowering, const FlatCall& call);
void LowerConcat(Lowering& lowering, const FlatCall& call);

}  // namespace collage::onednn
