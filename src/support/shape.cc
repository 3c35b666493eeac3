#include "support/shape.h"

#include "support/error.h"

namespace collage {

int64_t NumElements(const Shape& shape) {
  for (int64_t dim : shape) {
    if (dim == 0) return 0;
  }
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (__builtin_mul_overflow(count, dim, &count)) {
      throw TypeError("shape " + ShapeToString(shape) + " has more elements than a 64-bit count holds");
    }
  }
  return count;
}

int64_t CheckedNumBytes(const Shape& shape, int64_t element_bytes) {
  int64_t bytes = 0;
  if (__builtin_mul_overflow(NumElements(shape), element_bytes, &bytes)) {
    throw TypeError("shape " + ShapeToString(shape) + " of " + std::to_string(element_bytes) +
                    "-byte elements has more bytes than a 64-bit size holds");
  }
  return bytes;
}

std::vector<int64_t> ContiguousStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

std::string ShapeToString(const Shape& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + ")";
}

int64_t NormalizeAxis(int64_t axis, int64_t rank, const std::string& what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank) {
    throw TypeError(what + ": axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(rank));
  }
  return normalized;
}

}  // namespace collage
