#include "op/type_relation_util.h"

#include <algorithm>

namespace collage {

const TensorTypeNode& ExpectTensorArg(const std::vector<Type>& arg_types, size_t index, const std::string& name) {
  const TensorTypeNode* tensor = index < arg_types.size() ? AsTensorType(arg_types[index]) : nullptr;
  if (tensor == nullptr) {
    throw TypeError("argument " + std::to_string(index) + " (" + name + ") must be a tensor, got " +
                    (index < arg_types.size() ? TypeToString(arg_types[index]) : std::string("nothing")));
  }
  return *tensor;
}

void ExpectRank(const TensorTypeNode& type, int64_t rank, const std::string& name) {
  if (static_cast<int64_t>(type.shape.size()) != rank) {
    throw TypeError(name + " must have rank " + std::to_string(rank) + ", got shape " + ShapeToString(type.shape));
  }
}

void ExpectFloat(const TensorTypeNode& type, const std::string& name) {
  if (!IsFloatingPoint(type.dtype)) {
    throw TypeError(name + " must be floating point, got " + std::string(DTypeName(type.dtype)));
  }
}

void ExpectSameDType(const TensorTypeNode& lhs, const std::string& lhs_name, const TensorTypeNode& rhs,
                     const std::string& rhs_name) {
  if (lhs.dtype != rhs.dtype) {
    throw TypeError(lhs_name + " is " + std::string(DTypeName(lhs.dtype)) + " but " + rhs_name + " is " +
                    std::string(DTypeName(rhs.dtype)));
  }
}

Shape BroadcastShapes(const Shape& lhs, const Shape& rhs) {
  const size_t rank = std::max(lhs.size(), rhs.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right.
    const int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    const int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a != b && a != 1 && b != 1) {
      throw TypeError("cannot broadcast shapes " + ShapeToString(lhs) + " and " + ShapeToString(rhs) +
                      ": dimension " + std::to_string(i) + " of the result is " + std::to_string(a) + " vs " +
                      std::to_string(b));
    }
    result[i] = a == 1 ? b : a;
  }
  return result;
}

}  // namespace collage
