#include "op/kernel_util.h"

#include "support/error.h"

namespace collage {

Tensor AllocateResult(const Type& result_type) {
  const TensorTypeNode* tensor = AsTensorType(result_type);
  Check(tensor != nullptr, "reference kernel: expected a tensor result type, got " + TypeToString(result_type));
  return Tensor::Zeros(tensor->dtype, tensor->shape);
}

std::vector<int64_t> BroadcastIndexMap(const Shape& in_shape, const Shape& out_shape) {
  const size_t rank = out_shape.size();
  const size_t offset = rank - in_shape.size();
  // Stride of each output dimension in the input (0 where the input broadcasts).
  std::vector<int64_t> in_strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = in_shape.size(); i-- > 0;) {
    in_strides[i + offset] = in_shape[i] == 1 ? 0 : stride;
    stride *= in_shape[i];
  }
  const int64_t count = NumElements(out_shape);
  std::vector<int64_t> map(static_cast<size_t>(count));
  std::vector<int64_t> index(rank, 0);
  int64_t in_flat = 0;
  for (int64_t flat = 0; flat < count; ++flat) {
    map[static_cast<size_t>(flat)] = in_flat;
    // Increment the multi-index (odometer) and keep in_flat in step.
    for (size_t d = rank; d-- > 0;) {
      ++index[d];
      in_flat += in_strides[d];
      if (index[d] < out_shape[d]) break;
      in_flat -= in_strides[d] * index[d];
      index[d] = 0;
    }
  }
  return map;
}

std::vector<int64_t> UnravelIndex(int64_t flat, const Shape& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] == 0 ? 0 : flat % shape[d];
    flat = shape[d] == 0 ? 0 : flat / shape[d];
  }
  return index;
}

int64_t RavelIndex(const std::vector<int64_t>& index, const Shape& shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

}  // namespace collage
