// Fused scaled-dot-product attention: out = softmax(Q K * scale, masked) V per batch (each
// head of each sample), without the score matrix in memory. A task takes a block of up to
// kAttentionRows query rows of one batch; its thread packs that batch's keys (transposed, D x Sk)
// and values (Sk x Dv) into row-major buffers once, then for each query row computes the row's
// logits against every key, masks and normalizes them in a buffer of one row, and sums the value
// rows weighted by them, whose results reach the epilogue.
//
// Both products run as WeightedRowSum: kAttentionLanes outputs accumulated in 8-float vector
// registers over a contiguous packed row per step (keys, or value columns, are zero-padded to
// whole chunks), so the loops vectorize along the outputs without horizontal sums.
//
// Operands are strided views (the head transposes of multi-head attention are strides, not
// copies): element (batch b, row r, column c) of an operand is at
// data[offsets[b] + r * row_stride + c * column_stride].
#pragma once

#include "native_rows.h"

namespace native {

inline constexpr int64_t kAttentionRows = 32;
inline constexpr int64_t kAttentionLanes = 64;

template <typename T>
struct StridedView {
  const T* data;
  const int64_t* offsets;
  int64_t row_stride;
  int64_t column_stride;

  NATIVE_INLINE const T* Batch(int64_t b) const { return data + offsets[b]; }
};

struct AttentionShape {
  int64_t batches, queries, keys, depth, value_depth;
};

// Eight floats, one AVX register; unaligned.
typedef float AttentionVector __attribute__((vector_size(32), aligned(4)));
inline constexpr int64_t kAttentionVectors = kAttentionLanes / 8;

// out[l] = sum over k < count of weights[k] * rows[k * stride + l], for l < kAttentionLanes.
NATIVE_INLINE void WeightedRowSum(int64_t count, const float* weights, const float* rows, int64_t stride, float* out) {
  AttentionVector sums[kAttentionVectors] = {};
  for (int64_t k = 0; k < count; ++k) {
    const float weight = weights[k];
    const AttentionVector* row = reinterpret_cast<const AttentionVector*>(rows + k * stride);
#pragma GCC unroll 8
    for (int64_t v = 0; v < kAttentionVectors; ++v) sums[v] += weight * row[v];
  }
  for (int64_t v = 0; v < kAttentionVectors; ++v) reinterpret_cast<AttentionVector*>(out)[v] = sums[v];
}

NATIVE_INLINE int64_t WholeChunks(int64_t count) {
  return (count + kAttentionLanes - 1) / kAttentionLanes * kAttentionLanes;
}

// packed[r * padded + c] = view element (r, c) of `data` for r < rows, c < columns; 0 up to padded.
NATIVE_INLINE void PackRows(const float* data, int64_t row_stride, int64_t column_stride, int64_t rows, int64_t columns,
                            int64_t padded, float* packed) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = data + r * row_stride;
    float* out = packed + r * padded;
    for (int64_t c = 0; c < columns; ++c) out[c] = in[c * column_stride];
    for (int64_t c = columns; c < padded; ++c) out[c] = 0.0f;
  }
}

// query (batch, Sq, D), key (batch, D, Sk: the transposed keys), value (batch, Sk, Dv), mask
// (batch, Sq, Sk; Mask is bool, float or NoMask); `output` gives the strides of the result
// (batch, Sq, Dv), whose linear indices reach epilogue(index, value).
template <typename Mask, typename Epilogue>
NATIVE_INLINE void Attention(const AttentionShape& s, const StridedView<float>& query, const StridedView<float>& key,
                             const StridedView<float>& value, const StridedView<Mask>& mask,
                             const StridedView<float>& output, float scale, float masked_value, const Threads& threads,
                             const Epilogue& epilogue) {
  using I = EpilogueIndex<Epilogue>;
  const int64_t blocks = (s.queries + kAttentionRows - 1) / kAttentionRows;
  const int64_t keys_padded = WholeChunks(s.keys);
  const int64_t values_padded = WholeChunks(s.value_depth);
  const int64_t work = kAttentionRows * s.keys * (s.depth + s.value_depth);
  ParallelFor(s.batches * blocks, threads, GrainFor(work), [&](int64_t begin, int64_t end) {
    Scratch<float> keys(s.depth * keys_padded);
    Scratch<float> values(s.keys * values_padded);
    Scratch<float> query_row(s.depth);
    Scratch<float> logits(keys_padded);
    Scratch<float> result(values_padded);
    int64_t packed_batch = -1;
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / blocks;
      if (b != packed_batch) {
        PackRows(key.Batch(b), key.row_stride, key.column_stride, s.depth, s.keys, keys_padded, keys.data());
        PackRows(value.Batch(b), value.row_stride, value.column_stride, s.keys, s.value_depth, values_padded,
                 values.data());
        packed_batch = b;
      }
      const int64_t first = task % blocks * kAttentionRows;
      const int64_t last = s.queries - first < kAttentionRows ? s.queries : first + kAttentionRows;
      for (int64_t r = first; r < last; ++r) {
        const float* q = query.Batch(b) + r * query.row_stride;
        for (int64_t d = 0; d < s.depth; ++d) query_row.data()[d] = q[d * query.column_stride];
        float* row = logits.data();
        for (int64_t k0 = 0; k0 < keys_padded; k0 += kAttentionLanes) {
          WeightedRowSum(s.depth, query_row.data(), keys.data() + k0, keys_padded, row + k0);
        }
        const Mask* mask_row = mask.data == nullptr ? nullptr : mask.Batch(b) + r * mask.row_stride;
        for (int64_t k = 0; k < s.keys; ++k) {
          row[k] = MaskedLogit(row[k], scale, mask_row, k * mask.column_stride, masked_value);
        }
        SoftmaxRow(s.keys, [&](int64_t k) { return row[k]; }, [&](int64_t k, float p) { row[k] = p; });
        for (int64_t v0 = 0; v0 < values_padded; v0 += kAttentionLanes) {
          WeightedRowSum(s.keys, row, values.data() + v0, values_padded, result.data() + v0);
        }
        const int64_t out_base = output.offsets[b] + r * output.row_stride;
        for (int64_t v = 0; v < s.value_depth; ++v) {
          epilogue(static_cast<I>(out_base + v * output.column_stride), result.data()[v]);
        }
      }
    }
  });
}

}  // namespace native
