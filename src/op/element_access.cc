#include "op/element_access.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "support/error.h"

namespace collage {

void StoreInt64(Tensor& tensor, int64_t index, int64_t value) {
  switch (tensor.dtype()) {
    case DType::kI8: tensor.data<int8_t>()[index] = static_cast<int8_t>(value); return;
    case DType::kU8: tensor.data<uint8_t>()[index] = static_cast<uint8_t>(value); return;
    case DType::kI32: tensor.data<int32_t>()[index] = static_cast<int32_t>(value); return;
    case DType::kI64: tensor.data<int64_t>()[index] = value; return;
    case DType::kI16: tensor.data<int16_t>()[index] = static_cast<int16_t>(value); return;
    case DType::kU16: tensor.data<uint16_t>()[index] = static_cast<uint16_t>(value); return;
    case DType::kU32: tensor.data<uint32_t>()[index] = static_cast<uint32_t>(value); return;
    case DType::kU64: tensor.data<uint64_t>()[index] = static_cast<uint64_t>(value); return;
    case DType::kBool: tensor.data<bool>()[index] = value != 0; return;
    case DType::kF32:
    case DType::kF16:
    case DType::kBF16:
    case DType::kF64: tensor.SetFromDouble(index, static_cast<double>(value)); return;
  }
}

int64_t SaturatingInt64(double value) {
  if (std::isnan(value)) return 0;
  // 2^63 is exactly representable; every double below it converts without overflow.
  constexpr double kTwoToThe63 = 9223372036854775808.0;
  if (value >= kTwoToThe63) return std::numeric_limits<int64_t>::max();
  if (value < -kTwoToThe63) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

void StoreDouble(Tensor& tensor, int64_t index, double value) {
  const DType dtype = tensor.dtype();
  if (IsFloatingPoint(dtype)) {
    tensor.SetFromDouble(index, value);
  } else if (dtype == DType::kBool) {
    StoreInt64(tensor, index, value != 0.0 ? 1 : 0);
  } else {
    if (dtype == DType::kU64 && value >= 9223372036854775808.0) {
      tensor.data<uint64_t>()[index] =
          value >= 18446744073709551616.0 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(value);
      return;
    }
    const auto [low, high] = Int64Range(dtype);
    const int64_t truncated = SaturatingInt64(value);
    StoreInt64(tensor, index, truncated < low ? low : (truncated > high ? high : truncated));
  }
}

void CopyElement(const Tensor& source, int64_t source_index, Tensor& destination, int64_t destination_index) {
  if (source.dtype() != destination.dtype()) {
    throw Error("CopyElement: dtype " + std::string(DTypeName(source.dtype())) + " copied into " +
                std::string(DTypeName(destination.dtype())));
  }
  const size_t size = DTypeSize(source.dtype());
  std::memcpy(static_cast<std::byte*>(destination.raw_data()) + static_cast<size_t>(destination_index) * size,
              static_cast<const std::byte*>(source.raw_data()) + static_cast<size_t>(source_index) * size, size);
}

}  // namespace collage
