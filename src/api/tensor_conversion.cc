#include "api/tensor_conversion.h"

#include <memory>

#include "collage/error.h"

namespace collage::api {

DType ToDType(ElementType type) {
  switch (type) {
    case ElementType::kFloat32: return DType::kF32;
    case ElementType::kFloat16: return DType::kF16;
    case ElementType::kBFloat16: return DType::kBF16;
    case ElementType::kInt8: return DType::kI8;
    case ElementType::kUInt8: return DType::kU8;
    case ElementType::kInt32: return DType::kI32;
    case ElementType::kInt64: return DType::kI64;
    case ElementType::kBool: return DType::kBool;
    case ElementType::kFloat64: return DType::kF64;
    case ElementType::kInt16: return DType::kI16;
    case ElementType::kUInt16: return DType::kU16;
    case ElementType::kUInt32: return DType::kU32;
    case ElementType::kUInt64: return DType::kU64;
  }
  throw UsageError("unknown element type " + std::to_string(static_cast<int>(type)));
}

ElementType FromDType(DType dtype) {
  switch (dtype) {
    case DType::kF32: return ElementType::kFloat32;
    case DType::kF16: return ElementType::kFloat16;
    case DType::kBF16: return ElementType::kBFloat16;
    case DType::kI8: return ElementType::kInt8;
    case DType::kU8: return ElementType::kUInt8;
    case DType::kI32: return ElementType::kInt32;
    case DType::kI64: return ElementType::kInt64;
    case DType::kBool: return ElementType::kBool;
    case DType::kF64: return ElementType::kFloat64;
    case DType::kI16: return ElementType::kInt16;
    case DType::kU16: return ElementType::kUInt16;
    case DType::kU32: return ElementType::kUInt32;
    case DType::kU64: return ElementType::kUInt64;
  }
  throw Error("unknown dtype " + std::to_string(static_cast<int>(dtype)));
}

collage::Tensor ToLibraryTensor(const Tensor& tensor) {
  return collage::Tensor::Borrow(ToDType(tensor.element_type()), Shape(tensor.shape().begin(), tensor.shape().end()),
                                 const_cast<void*>(tensor.data()));
}

Tensor FromLibraryTensor(const collage::Tensor& tensor) {
  auto owner = std::make_shared<const collage::Tensor>(tensor);
  return Tensor::Shared(FromDType(tensor.dtype()), std::vector<int64_t>(tensor.shape().begin(), tensor.shape().end()),
                        const_cast<void*>(owner->raw_data()), owner);
}

TensorInfo DescribeParameter(const Var& parameter) {
  const TensorTypeNode* type = AsTensorType(parameter->type_annotation);
  if (type == nullptr) {
    throw UsageError("parameter '" + parameter->name_hint + "' has type " + TypeToString(parameter->type_annotation) +
                     ", which a tensor cannot provide");
  }
  return {parameter->name_hint, FromDType(type->dtype), std::vector<int64_t>(type->shape.begin(), type->shape.end())};
}

}  // namespace collage::api
