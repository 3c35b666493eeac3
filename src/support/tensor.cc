#include "support/tensor.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace collage {
namespace {

std::shared_ptr<std::byte> AllocateAligned(size_t bytes) {
  size_t rounded = (bytes + Tensor::kAlignment - 1) / Tensor::kAlignment * Tensor::kAlignment;
  if (rounded == 0) rounded = Tensor::kAlignment;
  void* memory = std::aligned_alloc(Tensor::kAlignment, rounded);
  if (memory == nullptr) throw Error("out of memory allocating " + std::to_string(bytes) + " bytes");
  std::memset(memory, 0, rounded);
  return std::shared_ptr<std::byte>(static_cast<std::byte*>(memory), [](std::byte* p) { std::free(p); });
}

}  // namespace

Tensor Tensor::Zeros(DType dtype, Shape shape) {
  for (int64_t dim : shape) Check(dim >= 0, "negative dimension in shape " + ShapeToString(shape));
  Tensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  const int64_t bytes = CheckedNumBytes(tensor.shape_, static_cast<int64_t>(DTypeSize(dtype)));
  tensor.storage_ = AllocateAligned(static_cast<size_t>(bytes));
  tensor.data_ = tensor.storage_.get();
  return tensor;
}

Tensor Tensor::Borrow(DType dtype, Shape shape, void* data) {
  Tensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.data_ = data;
  return tensor;
}

Tensor Tensor::Random(DType dtype, Shape shape, uint64_t seed, double low, double high) {
  Tensor tensor = Zeros(dtype, std::move(shape));
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> distribution(low, high);
  const int64_t count = tensor.NumElements();
  for (int64_t i = 0; i < count; ++i) {
    double value = distribution(generator);
    if (dtype == DType::kBool) {
      value = (generator() & 1u) ? 1.0 : 0.0;
    } else if (!IsFloatingPoint(dtype)) {
      value = std::round(value);
    }
    tensor.SetFromDouble(i, value);
  }
  return tensor;
}

void Tensor::CheckElementType(DType requested) const {
  if (requested != dtype_) {
    throw Error("tensor of dtype " + std::string(DTypeName(dtype_)) + " accessed as " +
                std::string(DTypeName(requested)));
  }
}

double Tensor::GetAsDouble(int64_t index) const {
  const std::byte* base = static_cast<const std::byte*>(data_);
  switch (dtype_) {
    case DType::kF32: return static_cast<const float*>(data_)[index];
    case DType::kF16: {
      uint16_t bits;
      std::memcpy(&bits, base + index * 2, 2);
      return HalfToFloat(bits);
    }
    case DType::kBF16: {
      uint16_t bits;
      std::memcpy(&bits, base + index * 2, 2);
      return BFloat16ToFloat(bits);
    }
    case DType::kI8: return static_cast<const int8_t*>(data_)[index];
    case DType::kU8: return static_cast<const uint8_t*>(data_)[index];
    case DType::kI32: return static_cast<const int32_t*>(data_)[index];
    case DType::kI64: return static_cast<double>(static_cast<const int64_t*>(data_)[index]);
    case DType::kBool: return static_cast<const bool*>(data_)[index] ? 1.0 : 0.0;
    case DType::kF64: return static_cast<const double*>(data_)[index];
    case DType::kI16: return static_cast<const int16_t*>(data_)[index];
    case DType::kU16: return static_cast<const uint16_t*>(data_)[index];
    case DType::kU32: return static_cast<const uint32_t*>(data_)[index];
    case DType::kU64: return static_cast<double>(static_cast<const uint64_t*>(data_)[index]);
  }
  return 0.0;
}

int64_t Tensor::GetAsInt64(int64_t index) const {
  switch (dtype_) {
    case DType::kI64: return static_cast<const int64_t*>(data_)[index];
    case DType::kI32: return static_cast<const int32_t*>(data_)[index];
    case DType::kU32: return static_cast<const uint32_t*>(data_)[index];
    case DType::kU64: {
      const uint64_t value = static_cast<const uint64_t*>(data_)[index];
      if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        throw Error("u64 element " + std::to_string(value) +
                    " is above 2^63 - 1, which integer arithmetic (in int64) does not hold");
      }
      return static_cast<int64_t>(value);
    }
    default: return static_cast<int64_t>(GetAsDouble(index));
  }
}

void Tensor::SetFromDouble(int64_t index, double value) {
  std::byte* base = static_cast<std::byte*>(data_);
  switch (dtype_) {
    case DType::kF32: static_cast<float*>(data_)[index] = static_cast<float>(value); return;
    case DType::kF16: {
      uint16_t bits = FloatToHalf(static_cast<float>(value));
      std::memcpy(base + index * 2, &bits, 2);
      return;
    }
    case DType::kBF16: {
      uint16_t bits = FloatToBFloat16(static_cast<float>(value));
      std::memcpy(base + index * 2, &bits, 2);
      return;
    }
    case DType::kI8: static_cast<int8_t*>(data_)[index] = static_cast<int8_t>(value); return;
    case DType::kU8: static_cast<uint8_t*>(data_)[index] = static_cast<uint8_t>(value); return;
    case DType::kI32: static_cast<int32_t*>(data_)[index] = static_cast<int32_t>(value); return;
    case DType::kI64: static_cast<int64_t*>(data_)[index] = static_cast<int64_t>(value); return;
    case DType::kBool: static_cast<bool*>(data_)[index] = value != 0.0; return;
    case DType::kF64: static_cast<double*>(data_)[index] = value; return;
    case DType::kI16: static_cast<int16_t*>(data_)[index] = static_cast<int16_t>(value); return;
    // Unsigned dtypes wrap negative values modulo 2^bits, like the signed ones narrowing.
    case DType::kU16: static_cast<uint16_t*>(data_)[index] = static_cast<uint16_t>(static_cast<int64_t>(value)); return;
    case DType::kU32: static_cast<uint32_t*>(data_)[index] = static_cast<uint32_t>(static_cast<int64_t>(value)); return;
    case DType::kU64:
      if (value >= 18446744073709551616.0) {
        static_cast<uint64_t*>(data_)[index] = std::numeric_limits<uint64_t>::max();
      } else {
        static_cast<uint64_t*>(data_)[index] = value >= 9223372036854775808.0
                                                   ? static_cast<uint64_t>(value)
                                                   : static_cast<uint64_t>(static_cast<int64_t>(value));
      }
      return;
  }
}

Tensor Tensor::Clone() const {
  Tensor copy = Zeros(dtype_, shape_);
  if (NumBytes() > 0) std::memcpy(copy.data_, data_, NumBytes());
  return copy;
}

Tensor Tensor::Reshaped(Shape shape) const {
  Check(collage::NumElements(shape) == NumElements(),
        "cannot reshape " + ShapeToString(shape_) + " to " + ShapeToString(shape));
  Tensor view = *this;
  view.shape_ = std::move(shape);
  return view;
}

bool Tensor::BitwiseEqual(const Tensor& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_) return false;
  return NumBytes() == 0 || data_ == other.data_ || std::memcmp(data_, other.data_, NumBytes()) == 0;
}

}  // namespace collage
