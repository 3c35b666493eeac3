#include "backend/native/index_expr.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "support/error.h"

namespace collage::native {

std::vector<int64_t> RowMajorStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d > 1; --d) strides[d - 2] = strides[d - 1] * shape[d - 1];
  return strides;
}

std::string CoordinateExpr(const Shape& shape, size_t axis, const std::string& linear) {
  if (shape[axis] == 1) return "index_t{0}";
  const int64_t stride = RowMajorStrides(shape)[axis];
  std::string expr = stride == 1 ? linear : "(" + linear + " / " + IndexLiteral(stride) + ")";
  if (axis > 0) expr = "(" + expr + " % " + IndexLiteral(shape[axis]) + ")";
  return expr;
}

std::string LinearExpr(const Shape& shape, const std::vector<std::string>& coordinates) {
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  std::string expr;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const std::string term = strides[d] == 1 ? coordinates[d] : coordinates[d] + " * " + IndexLiteral(strides[d]);
    expr += (expr.empty() ? "" : " + ") + term;
  }
  return expr.empty() ? "index_t{0}" : "(" + expr + ")";
}

std::string BroadcastIndexExpr(const Shape& input, const Shape& output, const std::string& linear) {
  if (input == output) return linear;
  const size_t offset = output.size() - input.size();
  std::vector<std::string> coordinates;
  for (size_t d = 0; d < input.size(); ++d) {
    coordinates.push_back(input[d] == 1 ? "index_t{0}" : CoordinateExpr(output, d + offset, linear));
  }
  return LinearExpr(input, coordinates);
}

std::string StorageType(DType dtype) {
  switch (dtype) {
    case DType::kF32: return "float";
    case DType::kI8: return "int8_t";
    case DType::kU8: return "uint8_t";
    case DType::kI32: return "int32_t";
    case DType::kI64: return "int64_t";
    case DType::kBool: return "bool";
    case DType::kF16:
    case DType::kBF16:
    case DType::kF64:
    case DType::kI16:
    case DType::kU16:
    case DType::kU32:
    case DType::kU64: break;
  }
  throw Error("native: dtype " + std::string(DTypeName(dtype)) + " is not generated");
}

std::string ComputeType(DType dtype) {
  if (dtype == DType::kF32 || dtype == DType::kBool) return StorageType(dtype);
  StorageType(dtype);  // rejects the dtypes without a generator
  return "int64_t";
}

std::string FloatLiteral(double value) {
  const float rounded = static_cast<float>(value);
  if (std::isnan(rounded)) return "std::numeric_limits<float>::quiet_NaN()";
  if (std::isinf(rounded)) return rounded > 0 ? "std::numeric_limits<float>::infinity()" : "(-std::numeric_limits<float>::infinity())";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.9gf", static_cast<double>(rounded));
  std::string text = buffer;
  if (text.find_first_of(".en") == std::string::npos) text.insert(text.size() - 1, ".0");
  return "(" + text + ")";
}

std::string IndexLiteral(int64_t value) { return "index_t{" + std::to_string(value) + "}"; }

std::string IntLiteral(int64_t value) {
  if (value == std::numeric_limits<int64_t>::min()) return "std::numeric_limits<int64_t>::min()";
  return "int64_t{" + std::to_string(value) + "}";
}

}  // namespace collage::native
