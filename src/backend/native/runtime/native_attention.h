// Fused scaled-dot-product attention: out = softmax(Q K * scale, masked) V per batch (each
// head of each sample), without the score matrix in memory. A task takes a block of up to
// kAttentionRows query rows of one batch; its thread packs that batch's keys (transposed,
// D x Sk) and values (Sk x Dv) into the GEMM's column panels once, then computes the block's
// logits (rows x Sk) with the GEMM micro-kernel, masks and normalizes each row in place, and
// multiplies the rows by the values with the micro-kernel again, whose results reach the
// epilogue. The block's logits are the only score memory: kAttentionRows x Sk floats.
//
// Operands are strided views (the head transposes of multi-head attention are strides, not
// copies): element (batch b, row r, column c) of an operand is at
// data[offsets[b] + r * row_stride + c * column_stride].
#pragma once

#include "native_gemm.h"
#include "native_rows.h"

namespace native {

inline constexpr int64_t kAttentionRows = 4 * kMR;

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

NATIVE_INLINE int64_t WholePanels(int64_t count) { return (count + kNR - 1) / kNR; }

// The rows x columns matrix view `data` (strides as in StridedView) as the micro-kernel's
// B operand: panel p holds columns [p * kNR, (p + 1) * kNR) row after row, zero-padded.
NATIVE_INLINE void PackPanels(const float* data, int64_t row_stride, int64_t column_stride, int64_t rows, int64_t columns,
                              float* packed) {
  for (int64_t panel = 0; panel < WholePanels(columns); ++panel) {
    const int64_t first = panel * kNR;
    const int64_t width = columns - first < kNR ? columns - first : kNR;
    float* out = packed + panel * rows * kNR;
    for (int64_t r = 0; r < rows; ++r) {
      const float* in = data + r * row_stride + first * column_stride;
      for (int64_t c = 0; c < width; ++c) out[r * kNR + c] = in[c * column_stride];
      for (int64_t c = width; c < kNR; ++c) out[r * kNR + c] = 0.0f;
    }
  }
}

// c (rows x kNR, row stride kNR) = a (rows x depth, row-major with row stride `lda`) times
// one packed panel, in micro-kernel tiles.
NATIVE_INLINE void PanelProduct(int64_t rows, int64_t depth, const float* a, int64_t lda, const float* panel, float* c) {
  for (int64_t m0 = 0; m0 < rows; m0 += kMR) {
    const int tile_rows = static_cast<int>(rows - m0 < kMR ? rows - m0 : kMR);
    MicroKernelRows(tile_rows, depth, RowMajorA(a + m0 * lda, lda), panel, c + m0 * kNR, false);
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
  const int64_t key_panels = WholePanels(s.keys);
  const int64_t value_panels = WholePanels(s.value_depth);
  const int64_t logits_stride = key_panels * kNR;
  const int64_t work = kAttentionRows * s.keys * (s.depth + s.value_depth);
  ParallelFor(s.batches * blocks, threads, GrainFor(work), [&](int64_t begin, int64_t end) {
    Scratch<float> keys(key_panels * s.depth * kNR);
    Scratch<float> values(value_panels * s.keys * kNR);
    Scratch<float> queries(kAttentionRows * s.depth);
    Scratch<float> logits(kAttentionRows * logits_stride);
    Scratch<float> tile(kAttentionRows * kNR);
    int64_t packed_batch = -1;
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / blocks;
      if (b != packed_batch) {
        PackPanels(key.Batch(b), key.row_stride, key.column_stride, s.depth, s.keys, keys.data());
        PackPanels(value.Batch(b), value.row_stride, value.column_stride, s.keys, s.value_depth, values.data());
        packed_batch = b;
      }
      const int64_t first = task % blocks * kAttentionRows;
      const int64_t rows = s.queries - first < kAttentionRows ? s.queries - first : kAttentionRows;
      for (int64_t r = 0; r < rows; ++r) {
        const float* q = query.Batch(b) + (first + r) * query.row_stride;
        for (int64_t d = 0; d < s.depth; ++d) queries.data()[r * s.depth + d] = q[d * query.column_stride];
      }
      for (int64_t panel = 0; panel < key_panels; ++panel) {
        PanelProduct(rows, s.depth, queries.data(), s.depth, keys.data() + panel * s.depth * kNR, tile.data());
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t c = 0; c < kNR; ++c) logits.data()[r * logits_stride + panel * kNR + c] = tile.data()[r * kNR + c];
        }
      }
      for (int64_t r = 0; r < rows; ++r) {
        float* row = logits.data() + r * logits_stride;
        const Mask* mask_row = mask.data == nullptr ? nullptr : mask.Batch(b) + (first + r) * mask.row_stride;
        for (int64_t k = 0; k < s.keys; ++k) {
          row[k] = MaskedLogit(row[k], scale, mask_row, k * mask.column_stride, masked_value);
        }
        SoftmaxRow(s.keys, [&](int64_t k) { return row[k]; }, [&](int64_t k, float p) { row[k] = p; });
      }
      for (int64_t panel = 0; panel < value_panels; ++panel) {
        PanelProduct(rows, s.keys, logits.data(), logits_stride, values.data() + panel * s.keys * kNR, tile.data());
        const int64_t width = s.value_depth - panel * kNR < kNR ? s.value_depth - panel * kNR : kNR;
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t out_base = output.offsets[b] + (first + r) * output.row_stride;
          for (int64_t c = 0; c < width; ++c) {
            epilogue(static_cast<I>(out_base + (panel * kNR + c) * output.column_stride), tile.data()[r * kNR + c]);
          }
        }
      }
    }
  });
}

}  // namespace native
