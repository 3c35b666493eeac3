// Layouts between the IR and XNNPACK. The IR is NCHW row-major; XNNPACK computes 4-D
// activations in NHWC, so every rank-4 IR tensor lives in the subgraph with its channel axis
// last, and tensors of other ranks keep the IR's layout. Weights are repacked once at compile
// time into XNNPACK's filter layouts.
#pragma once

#include <cstddef>
#include <vector>

#include "support/shape.h"
#include "support/tensor.h"

namespace collage::xnnpack {

// The shape XNNPACK sees for an IR tensor of shape `ir_shape`: NHWC for rank 4, else unchanged.
Shape SubgraphShape(const Shape& ir_shape);

// True when the NHWC copy of an IR tensor has its elements in the same order as the NCHW
// original (not rank 4, one channel, or one pixel), so a plain reshape moves it across layouts.
bool NhwcKeepsElementOrder(const Shape& ir_shape);

// `shape` with leading 1s up to `rank` (numpy broadcasting alignment).
Shape PrependOnes(const Shape& shape, size_t rank);

// The f32 elements of `tensor` in the layout SubgraphShape(tensor.shape()) describes.
std::vector<float> ToSubgraphLayout(const Tensor& tensor);

// Convolution weights OIHW -> OHWI (dense and grouped convolution filters).
std::vector<float> OihwToOhwi(const Tensor& weight);
// Transposed-convolution weights (I, O / groups, KH, KW) -> (groups * O / groups, KH, KW,
// I / groups): each group's output channels with their taps and the group's input channels.
std::vector<float> TransposedConvolutionToOhwi(const Tensor& weight, int64_t groups);
// Depthwise weights (C * multiplier, 1, KH, KW) -> 1HWO (XNNPACK's depthwise filter layout).
std::vector<float> OihwToDepthwise1hwo(const Tensor& weight);

}  // namespace collage::xnnpack
