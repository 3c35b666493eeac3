// Small graph builders shared by the IR, interpreter and pass tests.
#pragma once

#include "ir/expr.h"
#include "ir/op_registry.h"

namespace collage::testing {

inline Type F32(Shape shape) { return TensorType(DType::kF32, std::move(shape)); }

// x -> relu -> add(., x) -> relu -> ... : `length` alternating calls on a [2, 3] input.
Function MakeChain(int length);
// A lattice of `layers` layers of `width` nodes: node i of layer k+1 is
// 0.5 * (node i + node i+1 of layer k), so every node feeds two users; the layers end in
// a sum of the last layer.
Function MakeDiamondLattice(int layers, int width);
// conv2d -> bias_add -> relu on a small NCHW input, weights as seeded constants.
Function MakeConvBiasRelu(uint64_t seed = 1);

}  // namespace collage::testing
