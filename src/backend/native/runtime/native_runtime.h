// The runtime support of native-generated kernels: scalar helpers with the reference
// interpreter's semantics (wrapping integer arithmetic, NaN-propagating max/min, saturating
// casts), the per-shared-object error slot, and ParallelFor over an outer loop (run by the
// host's pool, see native_threads.h).
//
// Generated code never throws (an exception escaping a pool worker terminates the process):
// a failing helper records a message with Fail() and the kernel returns it.
#pragma once

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "native_threads.h"

#define NATIVE_INLINE inline __attribute__((always_inline))

namespace native {

inline std::atomic<const char*> g_error{nullptr};

inline void Fail(const char* message) {
  const char* none = nullptr;
  g_error.compare_exchange_strong(none, message);
}
// The first failure since the last call, or null; clears it.
inline const char* TakeError() { return g_error.exchange(nullptr); }

// A 64-byte aligned buffer of `count` elements that lives for one kernel call.
template <typename T>
class Scratch {
 public:
  explicit Scratch(int64_t count)
      : data_(static_cast<T*>(std::aligned_alloc(64, (static_cast<size_t>(count) * sizeof(T) + 63) / 64 * 64 + 64))) {}
  ~Scratch() { std::free(data_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* data() { return data_; }

 private:
  T* data_;
};

// Chunks per thread of a parallel loop. The pool's threads claim chunks as they come, so
// when a thread starts late (the cores are shared) the others take its share rather than
// the whole loop waiting for it.
inline constexpr int64_t kChunksPerThread = 4;

// Calls body(begin, end) on contiguous chunks of [0, count), each at least `grain` long, on
// up to `threads.count` threads in parallel. It and the anchor entry points are always
// inlined into the kernel, so that on one thread the loops see the kernel's compile-time
// shapes (strides, kernel sizes) as constants.
template <typename Body>
NATIVE_INLINE void ParallelFor(int64_t count, const Threads& threads, int64_t grain, const Body& body) {
  const int64_t by_grain = grain > 0 ? count / grain : count;
  const int64_t most = threads.count * kChunksPerThread;
  const int64_t chunks = most < by_grain ? most : by_grain;
  if (threads.count <= 1 || chunks <= 1 || threads.run == nullptr) {
    if (count > 0) body(int64_t{0}, count);
    return;
  }
  struct Split {
    const Body* body;
    int64_t count;
    int64_t chunks;
  } split{&body, count, chunks};
  threads.run(threads.pool, threads.count, chunks, [](void* context, int64_t chunk) {
    const Split& s = *static_cast<const Split*>(context);
    (*s.body)(chunk * s.count / s.chunks, (chunk + 1) * s.count / s.chunks);
  }, &split);
}

// The index type an epilogue functor takes (its first parameter): anchors count their output
// loops in it, so that the stores of a contiguous loop are seen as contiguous (a loop counted
// in int64_t and narrowed to the kernel's int32_t index per element vectorizes into scatters).
template <typename Functor>
struct FirstParameter : FirstParameter<decltype(&Functor::operator())> {};
template <typename Class, typename Result, typename First, typename... Rest>
struct FirstParameter<Result (Class::*)(First, Rest...) const> {
  using type = First;
};
template <typename Epilogue>
using EpilogueIndex = typename FirstParameter<Epilogue>::type;

// The linear index row * Columns + col of an element loop that runs over rows of `Columns`
// elements (0 <= col < Columns). Dividing it by a multiple of Columns or taking it modulo a
// divisor or a multiple of Columns needs no per-element division: broadcast operands (a
// per-row statistic, a per-column bias) become loop-invariant or contiguous loads in the
// inner loop instead of gathers. Anything else sees the plain linear index.
template <typename I, int64_t Columns>
struct RowIndex {
  I row;
  I col;
  NATIVE_INLINE operator I() const { return row * I{Columns} + col; }
};

template <typename I, int64_t Columns>
NATIVE_INLINE I operator/(RowIndex<I, Columns> i, I divisor) {
  if (divisor % Columns == 0) return i.row / static_cast<I>(divisor / Columns);
  return static_cast<I>(i) / divisor;
}

template <typename I, int64_t Columns>
NATIVE_INLINE I operator%(RowIndex<I, Columns> i, I modulus) {
  if (modulus == Columns) return i.col;
  if (Columns % modulus == 0) return i.col % modulus;
  if (modulus % Columns == 0) return i.row % static_cast<I>(modulus / Columns) * I{Columns} + i.col;
  return static_cast<I>(i) % modulus;
}

template <typename T>
inline constexpr bool kIsRowIndex = false;
template <typename I, int64_t Columns>
inline constexpr bool kIsRowIndex<RowIndex<I, Columns>> = true;

// The fewest elements of light work (a load, a few flops, a store) worth a chunk of their own
// in a parallel loop. Starting a parallel loop and joining it takes 6-7 us on the 2-core
// machine this was tuned on (libgomp, warm threads), in which one thread streams about 100,000
// such elements: smaller loops run faster on the calling thread alone.
inline constexpr int64_t kParallelGrainElements = 98304;

// The grain, in iterations, of a parallel loop whose iterations each touch `elements`.
NATIVE_INLINE int64_t GrainFor(int64_t elements) {
  return elements >= kParallelGrainElements ? 1 : kParallelGrainElements / (elements > 0 ? elements : 1);
}

// Integer arithmetic wraps like fixed-width machine integers.
NATIVE_INLINE int64_t WrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
NATIVE_INLINE int64_t WrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
NATIVE_INLINE int64_t WrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }
NATIVE_INLINE int64_t WrapNeg(int64_t a) { return WrapSub(0, a); }

inline int64_t IntDivide(int64_t a, int64_t b) {
  if (b == 0) {
    Fail("integer division by zero");
    return 0;
  }
  return b == -1 ? WrapNeg(a) : a / b;
}

inline int64_t IntPower(int64_t base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 0) Fail("integer zero raised to a negative power");
    if (base == 1) return 1;
    if (base == -1) return exponent % 2 == 0 ? 1 : -1;
    return 0;
  }
  int64_t result = 1;
  for (int64_t square = base; exponent > 0; exponent /= 2) {
    if (exponent % 2 == 1) result = WrapMul(result, square);
    square = WrapMul(square, square);
  }
  return result;
}

template <typename T>
NATIVE_INLINE bool IsNaN(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return value != value;
  } else {
    return false;
  }
}

// NaN-propagating max/min with the reference's results (a NaN argument wins, `a` first; ties
// give `a`). `a < b ? b : a` is exactly the SSE/AVX max instruction with swapped operands, so
// with the two NaN selects a vectorized loop spends one vmaxps/vminps, two unordered compares
// and two blends (a `>=` form defeats that pattern and costs several times as much).
template <typename T>
NATIVE_INLINE T Max(T a, T b) {
  const T larger = a < b ? b : a;
  const T unless_b_nan = IsNaN(b) ? b : larger;
  return IsNaN(a) ? a : unless_b_nan;
}

template <typename T>
NATIVE_INLINE T Min(T a, T b) {
  const T smaller = b < a ? b : a;
  const T unless_b_nan = IsNaN(b) ? b : smaller;
  return IsNaN(a) ? a : unless_b_nan;
}

// Converts like the reference `cast`: floats to integers round toward zero and saturate
// (NaN gives 0), anything to bool is x != 0.
template <typename To, typename From>
NATIVE_INLINE To Cast(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return value != 0;
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (value != value) return 0;
    const double truncated = std::trunc(static_cast<double>(value));
    const double low = static_cast<double>(std::numeric_limits<To>::min());
    const double high = static_cast<double>(std::numeric_limits<To>::max());
    if (truncated <= low) return std::numeric_limits<To>::min();
    if (truncated >= high) return std::numeric_limits<To>::max();
    return static_cast<To>(truncated);
  } else {
    return static_cast<To>(value);
  }
}

// erf within 4e-7 absolute (libm's erff is within 1e-7) and without a libm call, so loops over it
// can vectorize: x P(x^2) / Q(x^2), fitted by weighted least squares on the relative error over
// [0, 4], with x clamped to [-4, 4] (erf(4) = 1 - 1.5e-8) and the result to [-1, 1]. NaN stays
// NaN (every comparison with it is false), -0 stays -0.
NATIVE_INLINE float Erf(float x) {
  // Coefficients of t^0, t^1, ... (Horner's rule below, highest first).
  constexpr float kNumerator[] = {1.1283791065216064f,     0.19835516810417175f,   0.05034681782126427f,
                                  0.003627239493653178f,   0.00013948773266747594f, -1.935256932483753e-06f,
                                  1.9709585075133873e-08f};
  constexpr float kDenominator[] = {1.0f, 0.5091198682785034f, 0.11433231085538864f, 0.01420733891427517f,
                                    0.0009362075943499804f};
  const float c = x < -4.0f ? -4.0f : (x > 4.0f ? 4.0f : x);
  const float t = c * c;
  float p = 0.0f;
  for (int i = 6; i >= 0; --i) p = p * t + kNumerator[i];
  float q = 0.0f;
  for (int i = 4; i >= 0; --i) q = q * t + kDenominator[i];
  const float r = c * p / q;
  return r > 1.0f ? 1.0f : (r < -1.0f ? -1.0f : r);
}

// e^x as 2^n e^r: x = n ln2 + r with |r| <= ln2 / 2 (ln2 split in two so that n ln2 is exact),
// e^r by its Taylor polynomial to r^7 (truncation below 6e-9 relative). For finite x only.
struct ExpParts {
  float power;     // n, a whole number
  float mantissa;  // e^r
};
NATIVE_INLINE ExpParts SplitExp(float x) {
  const float n = std::floor(x * 1.44269504088896341f + 0.5f);
  const float r = (x - n * 0.693145751953125f) - n * 1.42860682030941723e-6f;
  constexpr float kInverseFactorials[] = {1.0f,        1.0f,         1.0f / 2,    1.0f / 6,
                                          1.0f / 24,   1.0f / 120,   1.0f / 720,  1.0f / 5040};
  float p = kInverseFactorials[7];
  for (int i = 6; i >= 0; --i) p = p * r + kInverseFactorials[i];
  return {n, p};
}

// 2^k for k from -126 to 127.
NATIVE_INLINE float PowerOfTwo(int32_t k) { return std::bit_cast<float>((k + 127) << 23); }

// e^x within 1.5 ulp and without a libm call, so loops over it vectorize (SplitExp), with 2^n
// applied as two power-of-two factors: n from -150 to 128 then needs no special case, results
// overflow to inf above ~88.72 and pass through the subnormals to 0 below ~-87.3. NaN stays NaN.
NATIVE_INLINE float Exp(float x) {
  const float bounded = x < -104.0f ? -104.0f : (x > 89.0f ? 89.0f : x);
  const ExpParts parts = SplitExp(bounded == bounded ? bounded : 0.0f);
  const int32_t k = static_cast<int32_t>(parts.power);
  const int32_t low = k / 2;
  const float result = parts.mantissa * PowerOfTwo(low) * PowerOfTwo(k - low);
  return x == x ? result : x;
}

// The logistic function 1 / (1 + e^-x) within 2e-7 relative, vectorizable, with about half the
// work of going through Exp: e = e^-|x| lies in (0, 1], so one power-of-two factor scales it and
// nothing overflows; sigmoid(-|x|) = e / (1 + e) and sigmoid(|x|) = 1 - that. Below
// sigmoid(-87) ~ 1.6e-38 the result is 0. NaN stays NaN.
NATIVE_INLINE float Sigmoid(float x) {
  const float magnitude = std::fabs(x);
  const ExpParts parts = SplitExp(magnitude > 87.0f ? -87.0f : -magnitude);
  const float e = parts.mantissa * PowerOfTwo(static_cast<int32_t>(parts.power));
  const float negative_side = magnitude > 87.0f ? 0.0f : e / (1.0f + e);
  return x > 0.0f ? 1.0f - negative_side : negative_side;
}

// tanh within 1e-7 absolute and 4e-7 relative, vectorizable: below |x| = 0.25 its odd Taylor
// polynomial to x^9 (truncation below 1e-8 relative), above 1 - 2 / (e^2|x| + 1) with the sign
// of x. NaN stays NaN, -0 stays -0, +-inf give +-1.
NATIVE_INLINE float Tanh(float x) {
  const float t = x * x;
  const float series =
      x * (1.0f + t * (-1.0f / 3 + t * (2.0f / 15 + t * (-17.0f / 315 + t * (62.0f / 2835)))));
  const float magnitude = std::fabs(x);
  const float large = std::copysign(1.0f - 2.0f / (Exp(2.0f * magnitude) + 1.0f), x);
  return magnitude < 0.25f ? series : large;
}

// std::pow, with the integer exponents models square and cube with (layer norm's x^2, the tanh
// GELU's x^3) done as multiplications.
NATIVE_INLINE float Power(float base, float exponent) {
  if (exponent == 2.0f) return base * base;
  if (exponent == 3.0f) return base * base * base;
  return std::pow(base, exponent);
}

NATIVE_INLINE float Gelu(float x) { return 0.5f * x * (1.0f + Erf(x * 0.70710678118654752f)); }
NATIVE_INLINE float GeluTanh(float x) {
  return 0.5f * x * (1.0f + Tanh(0.79788456080286536f * (x + 0.044715f * x * x * x)));
}

// An index into an axis of `extent` from a gather index, negative counting from the end.
inline int64_t GatherPosition(int64_t index, int64_t extent) {
  if (index < -extent || index >= extent) {
    Fail("take: index out of range");
    return 0;
  }
  return index < 0 ? index + extent : index;
}

}  // namespace native
