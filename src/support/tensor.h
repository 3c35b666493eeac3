// A dense, row-major tensor: dtype, shape and a 64-byte-aligned buffer that is either
// owned (shared between copies of the Tensor) or borrowed from the caller.
// Copying a Tensor is cheap and aliases the same buffer; use Clone() for a deep copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>

#include "support/dtype.h"
#include "support/error.h"
#include "support/shape.h"

namespace collage {

class Tensor {
 public:
  static constexpr size_t kAlignment = 64;

  // An empty (null) tensor; defined() is false.
  Tensor() = default;

  // Allocates an owned, zero-filled buffer.
  static Tensor Zeros(DType dtype, Shape shape);
  // Wraps caller-owned memory; the caller keeps it alive while the Tensor is used.
  static Tensor Borrow(DType dtype, Shape shape, void* data);
  // Uniform values in [low, high) for floating dtypes, in [low, high] rounded for integers,
  // and fair coin flips for bool. Deterministic for a given seed.
  static Tensor Random(DType dtype, Shape shape, uint64_t seed, double low = -1.0,
                       double high = 1.0);
  // A scalar (rank 0) or 1-D tensor holding the given values.
  template <typename T>
  static Tensor FromVector(const std::vector<T>& values, Shape shape);

  bool defined() const { return data_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t NumElements() const { return collage::NumElements(shape_); }
  size_t NumBytes() const { return static_cast<size_t>(NumElements()) * DTypeSize(dtype_); }

  void* raw_data() { return data_; }
  const void* raw_data() const { return data_; }
  // Typed access; checks that T matches the dtype.
  template <typename T>
  T* data() {
    CheckElementType(DTypeOf<T>());
    return static_cast<T*>(data_);
  }
  template <typename T>
  const T* data() const {
    CheckElementType(DTypeOf<T>());
    return static_cast<const T*>(data_);
  }

  // Element i (row-major) converted to double / to int64; for any dtype. GetAsInt64 throws
  // Error for a u64 element above 2^63 - 1 rather than wrap it to a negative value.
  double GetAsDouble(int64_t index) const;
  int64_t GetAsInt64(int64_t index) const;
  // Stores a double into element i converting to the dtype (rounding toward zero for
  // integers, value != 0 for bool).
  void SetFromDouble(int64_t index, double value);

  Tensor Clone() const;
  // Same buffer, new shape with the same element count.
  Tensor Reshaped(Shape shape) const;
  // Bytewise equality of dtype, shape and contents.
  bool BitwiseEqual(const Tensor& other) const;

 private:
  void CheckElementType(DType requested) const;

  DType dtype_ = DType::kF32;
  Shape shape_;
  std::shared_ptr<std::byte> storage_;  // null when borrowed
  void* data_ = nullptr;
};

template <typename T>
Tensor Tensor::FromVector(const std::vector<T>& values, Shape shape) {
  Tensor tensor = Zeros(DTypeOf<T>(), std::move(shape));
  Check(static_cast<int64_t>(values.size()) == tensor.NumElements(),
        "Tensor::FromVector: " + std::to_string(values.size()) + " values for shape " +
            ShapeToString(tensor.shape()));
  T* out = tensor.data<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return tensor;
}

}  // namespace collage
