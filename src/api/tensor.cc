#include "collage/tensor.h"

#include "api/tensor_conversion.h"
#include "ir/type.h"

namespace collage::api {

std::string_view ElementTypeName(ElementType type) { return DTypeName(ToDType(type)); }

size_t ElementSize(ElementType type) { return DTypeSize(ToDType(type)); }

Tensor Tensor::Borrow(ElementType type, std::vector<int64_t> shape, void* data) {
  Tensor tensor;
  tensor.type_ = type;
  tensor.shape_ = std::move(shape);
  tensor.data_ = data;
  return tensor;
}

Tensor Tensor::Allocate(ElementType type, std::vector<int64_t> shape) {
  return FromLibraryTensor(collage::Tensor::Zeros(ToDType(type), Shape(shape.begin(), shape.end())));
}

Tensor Tensor::Shared(ElementType type, std::vector<int64_t> shape, void* data, std::shared_ptr<const void> owner) {
  Tensor tensor = Borrow(type, std::move(shape), data);
  tensor.owner_ = std::move(owner);
  return tensor;
}

int64_t Tensor::num_elements() const { return collage::NumElements(Shape(shape_.begin(), shape_.end())); }

std::vector<double> Tensor::ValuesAsDouble() const {
  const collage::Tensor tensor = ToLibraryTensor(*this);
  std::vector<double> values(static_cast<size_t>(num_elements()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = tensor.GetAsDouble(static_cast<int64_t>(i));
  return values;
}

std::string Tensor::TypeString() const {
  return TypeToString(TensorType(ToDType(type_), Shape(shape_.begin(), shape_.end())));
}

}  // namespace collage::api
