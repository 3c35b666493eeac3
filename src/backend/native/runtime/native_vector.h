// Eight-float vectors (one AVX register) for the hand-vectorized kernels, and the fused
// multiply-add they accumulate with: generated code is compiled in ISO C++ mode, which does
// not contract a * b + c into one instruction.
#pragma once

#include "native_runtime.h"

namespace native {

typedef float Vec8 __attribute__((vector_size(32)));
// The same, at any float-aligned address.
typedef float UnalignedVec8 __attribute__((vector_size(32), aligned(4)));

NATIVE_INLINE Vec8 LoadVec(const float* p) { return *reinterpret_cast<const Vec8*>(p); }
NATIVE_INLINE void StoreVec(float* p, Vec8 v) { *reinterpret_cast<Vec8*>(p) = v; }
NATIVE_INLINE Vec8 LoadUnaligned(const float* p) { return *reinterpret_cast<const UnalignedVec8*>(p); }
NATIVE_INLINE Vec8 Broadcast(float x) { return Vec8{x, x, x, x, x, x, x, x}; }

// a * b + c, in one rounding where the target has FMA.
NATIVE_INLINE Vec8 MultiplyAdd(Vec8 a, Vec8 b, Vec8 c) {
#if defined(__FMA__)
  return __builtin_ia32_vfmaddps256(a, b, c);
#else
  return a * b + c;
#endif
}

NATIVE_INLINE float SumLanes(Vec8 v) {
  const float low = (v[0] + v[1]) + (v[2] + v[3]);
  const float high = (v[4] + v[5]) + (v[6] + v[7]);
  return low + high;
}

}  // namespace native
