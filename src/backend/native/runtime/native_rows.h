// Row kernels: softmax, log_softmax and layer_norm along one axis of a tensor seen as
// [outer, extent, inner] (rows are strided by `inner`), and reductions of an accessor over
// a generated index map. Statistics accumulate in double like the reference.
#pragma once

#include "native_runtime.h"

namespace native {

struct RowShape {
  int64_t outer, extent, inner;
};

enum class RowOp { kSoftmax, kLogSoftmax };

template <RowOp Op, typename Epilogue>
NATIVE_INLINE void SoftmaxRows(const RowShape& s, const float* data, const Threads& threads, const Epilogue& epilogue) {
  ParallelFor(s.outer * s.inner, threads, 64, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t base = (row / s.inner) * s.extent * s.inner + row % s.inner;
      const float* in = data + base;
      float maximum = -std::numeric_limits<float>::infinity();
      for (int64_t e = 0; e < s.extent; ++e) maximum = in[e * s.inner] > maximum ? in[e * s.inner] : maximum;
      double sum = 0.0;
      for (int64_t e = 0; e < s.extent; ++e) sum += Exp(in[e * s.inner] - maximum);
      if constexpr (Op == RowOp::kSoftmax) {
        const float scale = static_cast<float>(1.0 / sum);
        for (int64_t e = 0; e < s.extent; ++e) {
          epilogue(base + e * s.inner, Exp(in[e * s.inner] - maximum) * scale);
        }
      } else {
        const float shift = maximum + static_cast<float>(std::log(sum));
        for (int64_t e = 0; e < s.extent; ++e) epilogue(base + e * s.inner, in[e * s.inner] - shift);
      }
    }
  });
}

template <typename Epilogue>
NATIVE_INLINE void LayerNormRows(const RowShape& s, const float* data, const float* gamma, const float* beta, float epsilon,
                   const Threads& threads, const Epilogue& epilogue) {
  ParallelFor(s.outer * s.inner, threads, 64, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t base = (row / s.inner) * s.extent * s.inner + row % s.inner;
      const float* in = data + base;
      double sum = 0.0;
      for (int64_t e = 0; e < s.extent; ++e) sum += in[e * s.inner];
      const double mean = sum / static_cast<double>(s.extent);
      double squares = 0.0;
      for (int64_t e = 0; e < s.extent; ++e) {
        const double centered = in[e * s.inner] - mean;
        squares += centered * centered;
      }
      const float scale = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(s.extent) + epsilon));
      const float center = static_cast<float>(mean);
      for (int64_t e = 0; e < s.extent; ++e) {
        epilogue(base + e * s.inner, (in[e * s.inner] - center) * scale * gamma[e] + beta[e]);
      }
    }
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
  ParallelFor(out_count, threads, 16, [&](int64_t begin, int64_t end) {
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
        T result = value(index(o, 0));
        for (int64_t r = 1; r < reduce_count; ++r) {
          result = Op == ReduceOp::kMax ? Max<T>(result, value(index(o, r))) : Min<T>(result, value(index(o, r)));
        }
        epilogue(o, result);
      } else {
        Acc acc = Op == ReduceOp::kProd ? Acc{1} : Acc{0};
        for (int64_t r = 0; r < reduce_count; ++r) {
          const Acc element = static_cast<Acc>(value(index(o, r)));
          if constexpr (Op == ReduceOp::kProd) {
            if constexpr (std::is_floating_point_v<Acc>) {
              acc *= element;
            } else {
              acc = WrapMul(acc, element);
            }
          } else if constexpr (std::is_floating_point_v<Acc>) {
            acc += element;
          } else {
            acc = WrapAdd(acc, element);
          }
        }
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
