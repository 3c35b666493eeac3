// Questions the support declaration asks oneDNN before offering a call: whether a kernel
// other than oneDNN's reference implementation runs it on plain f32 layouts. The lowering
// falls back to plain layouts when its preferred ones have only a reference kernel, so a call
// that passes here always lowers to an optimized kernel; one that does not would be refused at
// compile time, which greedy placement cannot recover from.
#pragma once

#include <optional>
#include <string>

#include <oneapi/dnnl/dnnl.hpp>

#include "support/shape.h"
#include "support/tensor_format.h"

namespace collage::onednn {

// The binary primitive's algorithm for an IR op (add, nn.bias_add, subtract, ...).
std::optional<dnnl::algorithm> BinaryAlgorithm(const std::string& op);

// Operands padded with leading 1s to the result's rank.
bool PlainBinaryIsOptimized(dnnl::algorithm algorithm, const Shape& first, const Shape& second, const Shape& result,
                            const dnnl::engine& engine);

// Softmax (or log-softmax) along `axis` (normalized) of a tensor of `shape`.
bool PlainSoftmaxIsOptimized(bool log, const Shape& shape, int64_t axis, const dnnl::engine& engine);

// The layout oneDNN's optimized f32 convolutions choose for their activations on this CPU:
// channel blocks of 8 (AVX2) or 16, or channels-last (oneDNN 2.6's brgemm kernels on AVX-512);
// nullopt when they choose plain or have no optimized kernel.
std::optional<Layout> ConvolutionPreferredLayout(const dnnl::engine& engine);

}  // namespace collage::onednn

namespace collage::onednn {

// Whether oneDNN has a kernel other than its reference one for a 3x3 convolution and a matrix
// product (the shapes of a small CNN layer and a transformer projection) with activations and
// weights in `type` (u8 x s8 for int8, bf16 x bf16) and an f32 result: the machine's reduced
// precisions the backend declares.
bool ReducedPrecisionIsOptimized(dnnl::memory::data_type type, const dnnl::engine& engine);

}  // namespace collage::onednn
