// Scalar arithmetic of the reference kernels in both compute types (see element_access.h).
// Integer arithmetic wraps around like fixed-width machine integers instead of overflowing
// (which would be undefined behaviour); integer division truncates toward zero like C and
// throws Error on division by zero. Maximum and Minimum propagate NaN like numpy.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace collage::scalar {

template <typename T>
bool IsNaN(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(value);
  } else {
    return false;
  }
}

inline double Add(double a, double b) { return a + b; }
inline int64_t Add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

inline double Subtract(double a, double b) { return a - b; }
inline int64_t Subtract(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

inline double Multiply(double a, double b) { return a * b; }
inline int64_t Multiply(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

inline double Negate(double a) { return -a; }
inline int64_t Negate(int64_t a) { return Subtract(0, a); }

inline double Abs(double a) { return std::fabs(a); }
inline int64_t Abs(int64_t a) { return a < 0 ? Negate(a) : a; }

inline double Divide(double a, double b) { return a / b; }
int64_t Divide(int64_t a, int64_t b);

inline double Power(double base, double exponent) { return std::pow(base, exponent); }
// A negative exponent gives the real result truncated toward zero (so 0 unless |base| is 1).
int64_t Power(int64_t base, int64_t exponent);

template <typename T>
T Maximum(T a, T b) {
  if (IsNaN(a) || IsNaN(b)) return IsNaN(a) ? a : b;
  return a < b ? b : a;
}

template <typename T>
T Minimum(T a, T b) {
  if (IsNaN(a) || IsNaN(b)) return IsNaN(a) ? a : b;
  return b < a ? b : a;
}

// The remainder of a / b truncated toward zero (its sign is the dividend's, like C's % and
// fmod); integer division by zero throws Error.
inline double TruncatedRemainder(double a, double b) { return std::fmod(a, b); }
int64_t TruncatedRemainder(int64_t a, int64_t b);

// The remainder of a / b rounded toward -inf (its sign is the divisor's, like Python's %).
inline double FlooredRemainder(double a, double b) {
  const double remainder = std::fmod(a, b);
  return remainder != 0 && ((remainder < 0) != (b < 0)) ? remainder + b : remainder;
}
int64_t FlooredRemainder(int64_t a, int64_t b);

// Shifts of the bits of a; a shift by a negative count or by 64 or more shifts every bit out
// (right shifts of negative values fill with the sign, like C++20's >>).
inline int64_t ShiftLeft(int64_t a, int64_t count) {
  return count < 0 || count >= 64 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << count);
}
inline int64_t ShiftRight(int64_t a, int64_t count) {
  if (count < 0 || count >= 64) return a < 0 ? -1 : 0;
  return a >> count;
}

}  // namespace collage::scalar
