// Row kernels: softmax, log_softmax, masked softmax, layer_norm and rms_norm along one axis of a tensor seen as
// [outer, extent, inner] (rows are strided by `inner`), and reductions of an accessor over
// a generated index map. Statistics accumulate in double like the reference.
//
// Every reduction runs through LaneReduce: one accumulator would chain each step on the one
// before (a 768-element row then costs 768 add latencies); kReduceLanes independent
// accumulators, combined pairwise at the end, pipeline and vectorize.
#pragma once

#include "native_runtime.h"

namespace native {

struct RowShape {
  int64_t outer, extent, inner;
};

enum class RowOp { kSoftmax, kLogSoftmax };

inline constexpr int64_t kReduceLanes = 16;

// combine(...combine(identity, element(0))..., element(count - 1)), regrouped over the lanes:
// `combine` must be associative and `identity` its neutral element, or for an idempotent
// combine (max, min) any element of the range.
template <typename Acc, typename Combine, typename Element>
NATIVE_INLINE Acc LaneReduce(int64_t count, Acc identity, const Combine& combine, const Element& element) {
  Acc lanes[kReduceLanes];
  for (Acc& lane : lanes) lane = identity;
  int64_t r = 0;
  for (; r + kReduceLanes <= count; r += kReduceLanes) {
    for (int64_t l = 0; l < kReduceLanes; ++l) lanes[l] = combine(lanes[l], element(r + l));
  }
  for (int64_t l = 0; r < count; ++r, ++l) lanes[l] = combine(lanes[l], element(r));
  for (int64_t width = kReduceLanes / 2; width > 0; width /= 2) {
    for (int64_t l = 0; l < width; ++l) lanes[l] = combine(lanes[l], lanes[l + width]);
  }
  return lanes[0];
}

template <typename Element>
NATIVE_INLINE double LaneSum(int64_t count, const Element& element) {
  return LaneReduce(count, 0.0, [](double a, double b) { return a + b; }, element);
}

// Rows up to kSoftmaxBlock long keep their exponentials for the output loop; longer rows
// compute them again there.
inline constexpr int64_t kSoftmaxBlock = 4096;

// Runs row(base, in, stride) for every row of `s` in parallel, with the stride a compile-time
// 1 when rows are contiguous (so that their loops vectorize without gathers).
template <typename Row>
NATIVE_INLINE void ForEachRow(const RowShape& s, const float* data, const Threads& threads, const Row& row) {
  ParallelFor(s.outer * s.inner, threads, GrainFor(s.extent), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t base = (r / s.inner) * s.extent * s.inner + r % s.inner;
      if (s.inner == 1) {
        row(base, data + base, std::integral_constant<int64_t, 1>{});
      } else {
        row(base, data + base, s.inner);
      }
    }
  });
}

// Normalizes one row of `extent` logits, logit(e), handing store(e, probability) each. Rows up
// to kSoftmaxBlock keep their logits, then their exponentials, in a buffer (each logit computed
// once); longer ones compute their logits three times. Every logit is read before the first
// store, so `store` may overwrite what `logit` reads.
template <typename I, typename Logit, typename Store>
NATIVE_INLINE void SoftmaxRow(I extent, const Logit& logit, const Store& store) {
  float exps[kSoftmaxBlock];
  const bool buffered = extent <= kSoftmaxBlock;
  // Only the shift for range: any order of the comparisons will do (NaN rows end NaN anyway).
  float maximum = -std::numeric_limits<float>::infinity();
  if (buffered) {
    for (I e = 0; e < extent; ++e) exps[e] = logit(e);
#pragma omp simd reduction(max : maximum)
    for (I e = 0; e < extent; ++e) maximum = exps[e] > maximum ? exps[e] : maximum;
  } else {
#pragma omp simd reduction(max : maximum)
    for (I e = 0; e < extent; ++e) maximum = logit(e) > maximum ? logit(e) : maximum;
  }
  double sum = 0.0;
  for (I block = 0; block < extent; block += kSoftmaxBlock) {
    const I length = extent - block < kSoftmaxBlock ? extent - block : kSoftmaxBlock;
    if (buffered) {
      for (I e = 0; e < length; ++e) exps[e] = Exp(exps[e] - maximum);
    } else {
      for (I e = 0; e < length; ++e) exps[e] = Exp(logit(block + e) - maximum);
    }
    sum += LaneSum(length, [&](int64_t e) { return static_cast<double>(exps[e]); });
  }
  const float scale = static_cast<float>(1.0 / sum);
  if (buffered) {
    for (I e = 0; e < extent; ++e) store(e, exps[e] * scale);
  } else {
    for (I e = 0; e < extent; ++e) store(e, Exp(logit(e) - maximum) * scale);
  }
}

template <RowOp Op, typename Epilogue>
NATIVE_INLINE void SoftmaxRows(const RowShape& s, const float* data, const Threads& threads, const Epilogue& epilogue) {
  using I = EpilogueIndex<Epilogue>;
  const I extent = static_cast<I>(s.extent);
  ForEachRow(s, data, threads, [&](int64_t base, const float* in, auto stride) {
    const I first = static_cast<I>(base);
    const I step = static_cast<I>(stride);
    const auto logit = [&](I e) { return in[e * stride]; };
    if constexpr (Op == RowOp::kSoftmax) {
      SoftmaxRow(extent, logit, [&](I e, float value) { epilogue(first + e * step, value); });
    } else {
      float maximum = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : maximum)
      for (I e = 0; e < extent; ++e) maximum = logit(e) > maximum ? logit(e) : maximum;
      const double sum = LaneSum(extent, [&](int64_t e) { return static_cast<double>(Exp(logit(e) - maximum)); });
      const float shift = maximum + static_cast<float>(std::log(sum));
      for (I e = 0; e < extent; ++e) epilogue(first + e * step, logit(e) - shift);
    }
  });
}

// The mask type of a masked softmax without a mask.
struct NoMask {};

// The logit of a product `value` after the scale and a mask element: a bool mask selects
// `masked_value` where true, a float mask is added, NoMask leaves the scaled value.
template <typename Mask>
NATIVE_INLINE float MaskedLogit(float value, float scale, const Mask* mask, int64_t at, float masked_value) {
  if constexpr (std::is_same_v<Mask, bool>) {
    // Read as a byte: a bool load is a branch to GCC, which keeps the row loops scalar.
    const float scaled = value * scale;
    return reinterpret_cast<const unsigned char*>(mask)[at] != 0 ? masked_value : scaled;
  } else if constexpr (std::is_same_v<Mask, float>) {
    return value * scale + mask[at];
  } else {
    static_assert(std::is_same_v<Mask, NoMask>);
    (void)mask, (void)at, (void)masked_value;
    return value * scale;
  }
}

// softmax over rows of `extent` contiguous logits data * scale, masked: the mask element of
// (row, e) is at mask_row(row) + e * mask_column_stride, a std::integral_constant of 1, or of 0
// where the mask broadcasts along the rows (so that the row loops vectorize).
template <typename Mask, typename MaskRow, typename ColumnStride, typename Epilogue>
NATIVE_INLINE void MaskedSoftmaxRows(int64_t rows, int64_t extent, const float* data, float scale, const Mask* mask,
                                     const MaskRow& mask_row, ColumnStride mask_column_stride, float masked_value,
                                     const Threads& threads, const Epilogue& epilogue) {
  using I = EpilogueIndex<Epilogue>;
  const I length = static_cast<I>(extent);
  ParallelFor(rows, threads, GrainFor(extent), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float* in = data + r * extent;
      const int64_t mask_base = mask_row(r);
      const I first = static_cast<I>(r * extent);
      SoftmaxRow(
          length,
          [&](I e) { return MaskedLogit(in[e], scale, mask, mask_base + e * mask_column_stride, masked_value); },
          [&](I e, float value) { epilogue(first + e, value); });
    }
  });
}

template <typename Epilogue>
NATIVE_INLINE void LayerNormRows(const RowShape& s, const float* data, const float* gamma, const float* beta, float epsilon,
                   const Threads& threads, const Epilogue& epilogue) {
  using I = EpilogueIndex<Epilogue>;
  const I extent = static_cast<I>(s.extent);
  ForEachRow(s, data, threads, [&](int64_t base, const float* in, auto stride) {
    const double sum = LaneSum(extent, [&](int64_t e) { return static_cast<double>(in[e * stride]); });
    const double mean = sum / static_cast<double>(extent);
    const double squares = LaneSum(extent, [&](int64_t e) {
      const double centered = in[e * stride] - mean;
      return centered * centered;
    });
    const float scale = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(extent) + epsilon));
    const float center = static_cast<float>(mean);
    const I first = static_cast<I>(base);
    const I step = static_cast<I>(stride);
    for (I e = 0; e < extent; ++e) {
      epilogue(first + e * step, (in[e * stride] - center) * scale * gamma[e] + beta[e]);
    }
  });
}

template <typename Epilogue>
NATIVE_INLINE void RmsNormRows(const RowShape& s, const float* data, const float* gamma, float epsilon,
                               const Threads& threads, const Epilogue& epilogue) {
  using I = EpilogueIndex<Epilogue>;
  const I extent = static_cast<I>(s.extent);
  ForEachRow(s, data, threads, [&](int64_t base, const float* in, auto stride) {
    const double squares = LaneSum(extent, [&](int64_t e) {
      const double value = in[e * stride];
      return value * value;
    });
    const float scale = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(extent) + epsilon));
    const I first = static_cast<I>(base);
    const I step = static_cast<I>(stride);
    for (I e = 0; e < extent; ++e) epilogue(first + e * step, in[e * stride] * scale * gamma[e]);
  });
}

enum class ReduceOp { kSum, kMean, kMax, kMin, kProd, kArgMax, kArgMin };

// out[o] = reduction over r < reduce_count of value(index(o, r)); the accumulator is double
// for floating-point sums and products, T otherwise; arg reductions return the first
// extreme position r (NaN counts as the extreme, like the reference).
template <ReduceOp Op, typename T, typename Value, typename Index, typename Epilogue>
NATIVE_INLINE void Reduce(int64_t out_count, int64_t reduce_count, const Value& value, const Index& index, const Threads& threads,
            const Epilogue& epilogue) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
  ParallelFor(out_count, threads, GrainFor(reduce_count), [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      if constexpr (Op == ReduceOp::kArgMax || Op == ReduceOp::kArgMin) {
        int64_t best = 0;
        T best_value = value(index(o, 0));
        for (int64_t r = 1; r < reduce_count && !IsNaN(best_value); ++r) {
          const T candidate = value(index(o, r));
          const bool better = Op == ReduceOp::kArgMax ? candidate > best_value : candidate < best_value;
          if (better || IsNaN(candidate)) {
            best = r;
            best_value = candidate;
          }
        }
        epilogue(o, best);
      } else if constexpr (Op == ReduceOp::kMax || Op == ReduceOp::kMin) {
        const auto element = [&](int64_t r) { return static_cast<T>(value(index(o, r))); };
        const auto extreme = [](T a, T b) { return Op == ReduceOp::kMax ? Max<T>(a, b) : Min<T>(a, b); };
        epilogue(o, LaneReduce(reduce_count - 1, element(0), extreme, [&](int64_t r) { return element(r + 1); }));
      } else {
        const auto element = [&](int64_t r) { return static_cast<Acc>(value(index(o, r))); };
        const auto combine = [](Acc a, Acc b) {
          if constexpr (std::is_floating_point_v<Acc>) {
            return Op == ReduceOp::kProd ? a * b : a + b;
          } else {
            return Op == ReduceOp::kProd ? WrapMul(a, b) : WrapAdd(a, b);
          }
        };
        Acc acc = LaneReduce(reduce_count, Op == ReduceOp::kProd ? Acc{1} : Acc{0}, combine, element);
        if constexpr (Op == ReduceOp::kMean) {
          if constexpr (std::is_floating_point_v<Acc>) {
            acc /= static_cast<double>(reduce_count);
          } else {
            acc = IntDivide(acc, reduce_count);
          }
        }
        epilogue(o, static_cast<T>(acc));
      }
    }
  });
}

}  // namespace native
