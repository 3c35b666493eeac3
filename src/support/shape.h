// Static tensor shapes and the index arithmetic kernels share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collage {

using Shape = std::vector<int64_t>;

// Product of the dimensions; 1 for a scalar (rank 0), 0 when any dimension is 0. Throws
// TypeError naming the shape when the product overflows int64.
int64_t NumElements(const Shape& shape);
// NumElements times `element_bytes`; throws TypeError naming the shape when that overflows
// int64. Every tensor type and every tensor passes this check.
int64_t CheckedNumBytes(const Shape& shape, int64_t element_bytes);
// Row-major strides, in elements.
std::vector<int64_t> ContiguousStrides(const Shape& shape);
// "(1, 3, 224, 224)"; a scalar prints as "()".
std::string ShapeToString(const Shape& shape);
// Maps a possibly negative axis into [0, rank); throws TypeError naming `what` if out of range.
int64_t NormalizeAxis(int64_t axis, int64_t rank, const std::string& what);

}  // namespace collage
