// AVX-512 arithmetic shared by the host loops (host_depthwise.h, host_silu.h). Every function
// here must be called from code compiled for AVX-512F: a function with
// __attribute__((target("avx512f"))), run only where the CPU has it.
#pragma once

#include <immintrin.h>

namespace collage::xnnpack {

// Whether this CPU runs the loops that need AVX-512F.
inline bool CpuHasAvx512() { return __builtin_cpu_supports("avx512f"); }

// e^t for t <= 0, within 2e-7 relative: t = n ln 2 + r with |r| <= ln 2 / 2, e^r from its
// Taylor series to r^6, scaled by 2^n. Inputs below -100 count as -100 (e^-100 ~ 4e-44); a NaN
// stays NaN.
// (The masked forms of the intrinsics, all lanes on, because GCC 12 warns that the plain
// forms' undefined pass-through value may be used.)
__attribute__((target("avx512f"), always_inline)) inline __m512 ExpOfNonPositive(__m512 t) {
  constexpr __mmask16 kAll = 0xFFFF;
  t = _mm512_maskz_max_ps(kAll, _mm512_set1_ps(-100.0f), t);
  const __m512 n =
      _mm512_maskz_roundscale_ps(kAll, _mm512_mul_ps(t, _mm512_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT);
  __m512 r = _mm512_fmadd_ps(n, _mm512_set1_ps(-0.693145752f), t);  // ln 2, high bits
  r = _mm512_fmadd_ps(n, _mm512_set1_ps(-1.42860677e-6f), r);        // ln 2, the rest
  __m512 p = _mm512_set1_ps(1.0f / 720.0f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_maskz_scalef_ps(kAll, p, n);
}

// x * sigmoid(x), from e = e^-|x| so that nothing overflows: sigmoid(x) is 1 / (1 + e) for
// x >= 0 and e / (1 + e) below.
__attribute__((target("avx512f"), always_inline)) inline __m512 Silu(__m512 x) {
  const __m512 e = ExpOfNonPositive(_mm512_sub_ps(_mm512_setzero_ps(), _mm512_abs_ps(x)));
  const __m512 positive = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
  const __mmask16 negative = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m512 sigmoid = _mm512_mask_mul_ps(positive, negative, positive, e);
  return _mm512_mul_ps(x, sigmoid);
}

}  // namespace collage::xnnpack
