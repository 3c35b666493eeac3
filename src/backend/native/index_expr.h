// C++ expression builders for the index arithmetic of generated kernels. Tensors are dense
// row-major; a generated element function receives the linear index `i` of its output and
// computes its inputs' linear indices from it with these expressions (all extents are
// compile-time constants, so divisions become multiplications). Index arithmetic is in the
// kernel's `index_t`: int32_t when every tensor of the group has fewer than 2^31 elements
// (so that loops over it vectorize), else int64_t.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/dtype.h"
#include "support/shape.h"

namespace collage::native {

// Row-major strides of `shape`.
std::vector<int64_t> RowMajorStrides(const Shape& shape);

// The expression of coordinate `axis` of linear index `linear` in `shape`.
std::string CoordinateExpr(const Shape& shape, size_t axis, const std::string& linear);

// The linear index in `shape` of the coordinates `coordinates` (one expression per axis).
std::string LinearExpr(const Shape& shape, const std::vector<std::string>& coordinates);

// The linear index into an input of shape `input` that numpy-broadcasts to `output`, for the
// output linear index `linear`.
std::string BroadcastIndexExpr(const Shape& input, const Shape& output, const std::string& linear);

// The storage type of a dtype in generated code ("float", "int8_t", ...). Throws Error for
// dtypes the generator does not handle (f16, bf16).
std::string StorageType(DType dtype);
// The type element functions compute in: float for f32, bool for bool, int64_t for integers.
std::string ComputeType(DType dtype);

// A literal of the kernel's index type.
std::string IndexLiteral(int64_t value);

// A float literal that round-trips (with an f suffix), or an int64 literal.
std::string FloatLiteral(double value);
std::string IntLiteral(int64_t value);

}  // namespace collage::native
