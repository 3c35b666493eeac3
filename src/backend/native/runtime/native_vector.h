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

// Transposes the 8 x 8 matrix whose rows are rows[0..7] in place.
NATIVE_INLINE void Transpose8x8(Vec8* rows) {
  Vec8 pairs[8];
  for (int i = 0; i < 8; i += 2) {
    pairs[i] = __builtin_shufflevector(rows[i], rows[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    pairs[i + 1] = __builtin_shufflevector(rows[i], rows[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  Vec8 quads[8];
  for (int i = 0; i < 8; i += 4) {
    for (int half = 0; half < 2; ++half) {
      quads[i + 2 * half] = __builtin_shufflevector(pairs[i + half], pairs[i + half + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      quads[i + 2 * half + 1] = __builtin_shufflevector(pairs[i + half], pairs[i + half + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  }
  for (int i = 0; i < 4; ++i) {
    rows[i] = __builtin_shufflevector(quads[i], quads[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    rows[i + 4] = __builtin_shufflevector(quads[i], quads[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

NATIVE_INLINE float SumLanes(Vec8 v) {
  const float low = (v[0] + v[1]) + (v[2] + v[3]);
  const float high = (v[4] + v[5]) + (v[6] + v[7]);
  return low + high;
}

}  // namespace native
