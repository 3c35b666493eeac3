// Helpers shared by the reference kernels of src/op/*.cc. Reference kernels favour
// obvious correctness over speed: they compute in double and index explicitly.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/type.h"
#include "support/tensor.h"

namespace collage {

// A zero tensor of a (tensor) result type.
Tensor AllocateResult(const Type& result_type);

// For an output of shape `out_shape` and an input of shape `in_shape` that broadcasts to
// it (numpy rules), the input's flat index for each output flat index.
std::vector<int64_t> BroadcastIndexMap(const Shape& in_shape, const Shape& out_shape);

// Multi-index <-> flat index for row-major shapes.
std::vector<int64_t> UnravelIndex(int64_t flat, const Shape& shape);
int64_t RavelIndex(const std::vector<int64_t>& index, const Shape& shape);

}  // namespace collage
