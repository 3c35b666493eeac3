// Constant matrix operands of the GEMM packed when a kernel is generated, so that the kernel
// reads them in place (native::PackedPanels) instead of packing them on every call: the
// runtime's own packers write the layout, in the host.
#pragma once

#include "ir/expr.h"
#include "support/tensor.h"

namespace collage::native {

// True when `call` is a float dense (B = N x K weights) or matmul (B = K x N, one matrix for
// every batch) whose product runs through the GEMM's panels (not the few-row dot products of
// a dense): its B operand, when constant, is worth packing ahead.
bool TakesPackedWeights(const CallNode& call);

// The packed form of `weights`, the B operand of `call` (TakesPackedWeights).
Tensor PackWeights(const CallNode& call, const Tensor& weights);

// The elements of the packed form of a depth x columns matrix.
int64_t PackedWeightsElements(int64_t depth, int64_t columns);

}  // namespace collage::native
