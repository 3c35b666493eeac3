// Helpers shared by the type relations of src/op/*.cc.
#pragma once

#include <string>
#include <vector>

#include "ir/type.h"
#include "support/error.h"

namespace collage {

// The tensor type of argument `index`; throws TypeError("argument <index> (<name>) must be
// a tensor, got ...") otherwise.
const TensorTypeNode& ExpectTensorArg(const std::vector<Type>& arg_types, size_t index, const std::string& name);
inline int64_t Rank(const TensorTypeNode& type) { return static_cast<int64_t>(type.shape.size()); }
// Throws TypeError naming the argument unless its rank is `rank`.
void ExpectRank(const TensorTypeNode& type, int64_t rank, const std::string& name);
// Throws TypeError naming the argument unless its dtype is floating point.
void ExpectFloat(const TensorTypeNode& type, const std::string& name);
// Throws TypeError unless both arguments have the same dtype.
void ExpectSameDType(const TensorTypeNode& lhs, const std::string& lhs_name, const TensorTypeNode& rhs,
                     const std::string& rhs_name);
// Numpy broadcasting of two shapes; TypeError names the incompatible dimension.
Shape BroadcastShapes(const Shape& lhs, const Shape& rhs);

}  // namespace collage
