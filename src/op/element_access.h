// Element-level access for the reference kernels. Arithmetic kernels compute in a "compute
// type": double for floating-point dtypes and int64_t for integer and bool dtypes, so 64-bit
// integers stay exact (a u64 element above 2^63 - 1 is refused when loaded, never wrapped). Data-movement kernels copy raw elements and work for every dtype.
#pragma once

#include <cstdint>
#include <type_traits>

#include "support/tensor.h"

namespace collage {

// Stores an integer into element `index`: wrapping to the width of integer dtypes, value != 0
// for bool, the nearest value for floating-point dtypes.
void StoreInt64(Tensor& tensor, int64_t index, int64_t value);

// Converts rounding toward zero and saturating at the int64 range; NaN becomes 0.
int64_t SaturatingInt64(double value);

// Copies element `source_index` of `source` into element `destination_index` of `destination`
// bit for bit; both tensors must have the same dtype.
void CopyElement(const Tensor& source, int64_t source_index, Tensor& destination, int64_t destination_index);

// Element `index` in the compute type T (double or int64_t).
template <typename T>
T LoadElement(const Tensor& tensor, int64_t index) {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, int64_t>);
  if constexpr (std::is_same_v<T, double>) {
    return tensor.GetAsDouble(index);
  } else {
    return tensor.GetAsInt64(index);
  }
}

// Stores a double into element `index`: exactly-rounded for floating-point dtypes, value != 0
// for bool (NaN is true), and rounded toward zero, saturating at the dtype's range for integer
// dtypes (NaN becomes 0).
void StoreDouble(Tensor& tensor, int64_t index, double value);

// Stores a value of any arithmetic type into element `index` (StoreDouble or StoreInt64).
template <typename T>
void StoreElement(Tensor& tensor, int64_t index, T value) {
  static_assert(std::is_arithmetic_v<T>);
  if constexpr (std::is_floating_point_v<T>) {
    StoreDouble(tensor, index, static_cast<double>(value));
  } else {
    StoreInt64(tensor, index, static_cast<int64_t>(value));
  }
}

// Calls body.template operator()<T>() with T the compute type of `dtype`, e.g.
//   WithComputeType(dtype, [&]<typename T>() { ... LoadElement<T>(input, i) ... });
template <typename Body>
decltype(auto) WithComputeType(DType dtype, Body&& body) {
  if (IsFloatingPoint(dtype)) return body.template operator()<double>();
  return body.template operator()<int64_t>();
}

}  // namespace collage
