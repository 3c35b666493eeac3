// A blocked single-precision GEMM: C[M, N] = A[M, K] * B[K, N] with A strided in memory
// (row-major with a leading dimension, or column-major) and B supplied by a packer, so that
// dense weights, row-major matrices and convolution windows (im2col on the fly) share one
// micro-kernel.
//
// B is packed per thread into panels of kNR columns and kKC rows (zero-padded), or comes
// packed already (constant weights, packed once when the kernel is compiled: PackedPanels);
// the micro-kernel accumulates a kMR x kNR tile in vector registers over a K block, the tile
// accumulates across K blocks in a per-panel C buffer, and the epilogue `epilogue(m, n, v)`
// sees every finished element once. Threads split the column panels.
#pragma once

#include "native_vector.h"

namespace native {

inline constexpr int kMR = 6;
inline constexpr int kNR = 16;
inline constexpr int64_t kKC = 256;

// A kMR x kNR tile is 12 eight-float accumulators, which with two B vectors and one
// broadcast A value fits the 16 vector registers of AVX2.
inline constexpr int kVectorsPerRow = kNR / 8;

// A[m, k] at data[m * row_stride + k * column_stride]; one of the strides is 1.
struct MatrixA {
  const float* data;
  int64_t row_stride;
  int64_t column_stride;

  bool RowMajor() const { return column_stride == 1; }
  MatrixA At(int64_t m, int64_t k) const { return {data + m * row_stride + k * column_stride, row_stride, column_stride}; }
};

NATIVE_INLINE MatrixA RowMajorA(const float* data, int64_t lda) { return {data, lda, 1}; }

// c[r * kNR + j] (+)= sum_k A[r, k] * b[k * kNR + j] for r < Rows; `stride` is A's row
// stride when RowMajor, else its column stride.
template <int Rows, bool RowMajor>
inline void MicroKernel(int64_t kc, const float* a, int64_t stride, const float* b, float* c, bool accumulate) {
  Vec8 acc[Rows][kVectorsPerRow];
#pragma GCC unroll 6
  for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 2
    for (int v = 0; v < kVectorsPerRow; ++v) acc[r][v] = Vec8{};
  }
  for (int64_t k = 0; k < kc; ++k) {
    Vec8 bk[kVectorsPerRow];
#pragma GCC unroll 2
    for (int v = 0; v < kVectorsPerRow; ++v) bk[v] = LoadVec(b + k * kNR + v * 8);
#pragma GCC unroll 6
    for (int r = 0; r < Rows; ++r) {
      const Vec8 av = Broadcast(RowMajor ? a[r * stride + k] : a[k * stride + r]);
#pragma GCC unroll 2
      for (int v = 0; v < kVectorsPerRow; ++v) acc[r][v] = MultiplyAdd(av, bk[v], acc[r][v]);
    }
  }
#pragma GCC unroll 6
  for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 2
    for (int v = 0; v < kVectorsPerRow; ++v) {
      float* out = c + r * kNR + v * 8;
      StoreVec(out, accumulate ? LoadVec(out) + acc[r][v] : acc[r][v]);
    }
  }
}

template <bool RowMajor>
inline void MicroKernelRows(int rows, int64_t kc, const float* a, int64_t stride, const float* b, float* c,
                            bool accumulate) {
  switch (rows) {
    case 6: MicroKernel<6, RowMajor>(kc, a, stride, b, c, accumulate); break;
    case 5: MicroKernel<5, RowMajor>(kc, a, stride, b, c, accumulate); break;
    case 4: MicroKernel<4, RowMajor>(kc, a, stride, b, c, accumulate); break;
    case 3: MicroKernel<3, RowMajor>(kc, a, stride, b, c, accumulate); break;
    case 2: MicroKernel<2, RowMajor>(kc, a, stride, b, c, accumulate); break;
    default: MicroKernel<1, RowMajor>(kc, a, stride, b, c, accumulate); break;
  }
}

inline void MicroKernelRows(int rows, int64_t kc, const MatrixA& a, const float* b, float* c, bool accumulate) {
  if (a.RowMajor()) {
    MicroKernelRows<true>(rows, kc, a.data, a.row_stride, b, c, accumulate);
  } else {
    MicroKernelRows<false>(rows, kc, a.data, a.column_stride, b, c, accumulate);
  }
}

// A packer's call (k0, kc, n0, nr, packed) returns the panel block B[k0 + k, n0 + j] for
// k < kc, j < kNR (zero past nr columns) at [k * kNR + j]: written into `packed` (kKC * kNR
// floats), or found in memory that holds it packed already.

// Packers also say whether consecutive blocks (the next K block of a panel, or the next
// panel's first) follow one another in memory (kBlocksFollowInMemory), so that the GEMM may
// prefetch the next one.

// Packs from a row-major K x N matrix.
struct RowMajorPacker {
  static constexpr bool kBlocksFollowInMemory = false;
  const float* b;
  int64_t ldb;
  const float* operator()(int64_t k0, int64_t kc, int64_t n0, int64_t nr, float* packed) const {
    for (int64_t k = 0; k < kc; ++k) {
      const float* row = b + (k0 + k) * ldb + n0;
      float* out = packed + k * kNR;
      if (nr == kNR) {
#pragma GCC unroll 2
        for (int v = 0; v < kVectorsPerRow; ++v) StoreVec(out + v * 8, LoadUnaligned(row + v * 8));
        continue;
      }
      for (int64_t j = 0; j < nr; ++j) out[j] = row[j];
      for (int64_t j = nr; j < kNR; ++j) out[j] = 0.0f;
    }
    return packed;
  }
};

// Packs from a transposed (N x K row-major) matrix, e.g. dense weights: 8 x 8 blocks
// transposed in registers.
struct TransposedPacker {
  static constexpr bool kBlocksFollowInMemory = false;
  const float* b;
  int64_t ldb;
  const float* operator()(int64_t k0, int64_t kc, int64_t n0, int64_t nr, float* packed) const {
    const int64_t whole = kc / 8 * 8;
    for (int64_t j0 = 0; j0 < kNR; j0 += 8) {
      for (int64_t k = 0; k < whole; k += 8) {
        Vec8 block[8];
        for (int64_t j = 0; j < 8; ++j) {
          block[j] = j0 + j < nr ? LoadUnaligned(b + (n0 + j0 + j) * ldb + k0 + k) : Vec8{};
        }
        Transpose8x8(block);
        for (int64_t i = 0; i < 8; ++i) StoreVec(packed + (k + i) * kNR + j0, block[i]);
      }
    }
    for (int64_t k = whole; k < kc; ++k) {
      for (int64_t j = 0; j < kNR; ++j) packed[k * kNR + j] = j < nr ? b[(n0 + j) * ldb + k0 + k] : 0.0f;
    }
    return packed;
  }
};

// The floats that PackAllPanels writes for a K x N matrix.
NATIVE_INLINE int64_t PackedPanelsSize(int64_t k_count, int64_t n_count) {
  return (n_count + kNR - 1) / kNR * k_count * kNR;
}

// Every column panel of a K x N matrix through `pack`, panel after panel: panel p's rows
// [0, K) at out[(p * K + k) * kNR + j]. Runs where the weights are prepared (the host).
template <typename Packer>
void PackAllPanels(const Packer& pack, int64_t k_count, int64_t n_count, float* out) {
  for (int64_t n0 = 0; n0 < n_count; n0 += kNR) {
    float* panel = out + n0 * k_count;
    const int64_t nr = n_count - n0 < kNR ? n_count - n0 : kNR;
    for (int64_t k0 = 0; k0 < k_count; k0 += kKC) {
      const int64_t kc = k_count - k0 < kKC ? k_count - k0 : kKC;
      const float* block = pack(k0, kc, n0, nr, panel + k0 * kNR);
      if (block != panel + k0 * kNR) std::memcpy(panel + k0 * kNR, block, static_cast<size_t>(kc * kNR) * sizeof(float));
    }
  }
}

// B packed ahead by PackAllPanels: its blocks are read in place.
struct PackedPanels {
  static constexpr bool kBlocksFollowInMemory = true;
  const float* panels;
  int64_t k_count;
  const float* operator()(int64_t k0, int64_t, int64_t n0, int64_t, float*) const {
    return panels + (n0 * k_count + k0 * kNR);
  }
};

// The GEMM's epilogue for a row-major output: element (m, n) goes to epilogue(offset + m *
// row_stride + n, value). Its rows are counted in the epilogue's own index type, so that
// their stores are seen as contiguous and vectorize (an index computed in int64_t and
// narrowed per element is a scatter to the compiler). An epilogue that takes a
// RowIndex<I, Columns> (whole output rows, row_stride == Columns, offset a multiple of it)
// gets the row and the column, so that a per-column operand is read at the column itself.
template <typename Epilogue>
struct LinearStore {
  using Index = EpilogueIndex<Epilogue>;
  const Epilogue& epilogue;
  int64_t offset;
  int64_t row_stride;

  NATIVE_INLINE Index At(int64_t m, int64_t n) const {
    if constexpr (kIsRowIndex<Index>) {
      using I = decltype(Index::row);
      return Index{static_cast<I>(offset / row_stride + m), static_cast<I>(n)};
    } else {
      return static_cast<Index>(offset + m * row_stride + n);
    }
  }
  NATIVE_INLINE void operator()(int64_t m, int64_t n, float value) const { epilogue(At(m, n), value); }
  template <typename Count>
  NATIVE_INLINE void Row(int64_t m, int64_t n0, Count count, const float* values) const {
    if constexpr (kIsRowIndex<Index>) {
      using I = decltype(Index::row);
      const I row = static_cast<I>(offset / row_stride + m);
      const I first = static_cast<I>(n0);
      for (I j = 0; j < static_cast<I>(count); ++j) epilogue(Index{row, static_cast<I>(first + j)}, values[j]);
    } else {
      const Index first = static_cast<Index>(offset + m * row_stride + n0);
      for (Index j = 0; j < static_cast<Index>(count); ++j) epilogue(first + j, values[j]);
    }
  }
};

// epilogue(m, n0 + j, values[j]) for j < count, through the epilogue's Row where it has one.
template <typename Epilogue, typename Count>
NATIVE_INLINE void StoreRow(const Epilogue& epilogue, int64_t m, int64_t n0, Count count, const float* values) {
  if constexpr (requires { epilogue.Row(m, n0, count, values); }) {
    epilogue.Row(m, n0, count, values);
  } else {
    for (int64_t j = 0; j < count; ++j) epilogue(m, n0 + j, values[j]);
  }
}

// Share `part` of `parts` of the cache lines of floats [next, next + count): the GEMM
// prefetches the next B block, where it follows the current one in memory, spread over the
// micro-kernel calls of the current block, so that weights streamed from memory arrive
// before they are needed.
NATIVE_INLINE void PrefetchShare(const float* next, int64_t count, int64_t part, int64_t parts) {
  constexpr int64_t kLineFloats = 16;
  const int64_t lines = (count + kLineFloats - 1) / kLineFloats;
  const int64_t per_part = (lines + parts - 1) / parts;
  const int64_t end = (part + 1) * per_part < lines ? (part + 1) * per_part : lines;
  for (int64_t line = part * per_part; line < end; ++line) __builtin_prefetch(next + line * kLineFloats, 0, 3);
}

// The GEMM over column panels [panel_begin, panel_end) (one thread's share).
template <typename Packer, typename Epilogue>
void GemmPanels(int64_t m_count, int64_t n_count, int64_t k_count, const MatrixA& a, const Packer& pack,
                int64_t panel_begin, int64_t panel_end, const Epilogue& epilogue) {
  Scratch<float> packed(kKC * kNR);
  Scratch<float> tile(((m_count + kMR - 1) / kMR * kMR) * kNR);
  for (int64_t panel = panel_begin; panel < panel_end; ++panel) {
    const int64_t n0 = panel * kNR;
    const int64_t nr = n_count - n0 < kNR ? n_count - n0 : kNR;
    if (k_count == 0) {
      for (int64_t i = 0; i < m_count * kNR; ++i) tile.data()[i] = 0.0f;
    }
    for (int64_t k0 = 0; k0 < k_count; k0 += kKC) {
      const int64_t kc = k_count - k0 < kKC ? k_count - k0 : kKC;
      const float* block = pack(k0, kc, n0, nr, packed.data());
      const int64_t tiles = (m_count + kMR - 1) / kMR;
      for (int64_t m0 = 0; m0 < m_count; m0 += kMR) {
        if constexpr (Packer::kBlocksFollowInMemory) PrefetchShare(block + kc * kNR, kc * kNR, m0 / kMR, tiles);
        const int rows = static_cast<int>(m_count - m0 < kMR ? m_count - m0 : kMR);
        MicroKernelRows(rows, kc, a.At(m0, k0), block, tile.data() + m0 * kNR, k0 > 0);
      }
    }
    for (int64_t m = 0; m < m_count; ++m) {
      const float* row = tile.data() + m * kNR;
      if (nr == kNR) {  // a whole panel: a fixed trip count, so the epilogue's loop vectorizes
        StoreRow(epilogue, m, n0, std::integral_constant<int64_t, kNR>{}, row);
      } else {
        StoreRow(epilogue, m, n0, nr, row);
      }
    }
  }
}

// C = A * B with `threads` threads over the column panels; epilogue(m, n, value).
template <typename Packer, typename Epilogue>
void Gemm(int64_t m_count, int64_t n_count, int64_t k_count, const MatrixA& a, const Packer& pack, const Threads& threads,
          const Epilogue& epilogue) {
  const int64_t panels = (n_count + kNR - 1) / kNR;
  ParallelFor(panels, threads, 1, [&](int64_t begin, int64_t end) {
    GemmPanels(m_count, n_count, k_count, a, pack, begin, end, epilogue);
  });
}

// sums[c] = sum over k of row[k] * columns[c * ldb + k] for c < Columns: each column's dot
// product in two 8-float accumulators, the row's vectors loaded once for all the columns.
template <int Columns>
NATIVE_INLINE void DotProducts(int64_t k_count, const float* row, const float* columns, int64_t ldb, float* sums) {
  Vec8 acc[Columns][2];
#pragma GCC unroll 4
  for (int c = 0; c < Columns; ++c) acc[c][0] = acc[c][1] = Vec8{};
  int64_t k = 0;
  for (; k + 16 <= k_count; k += 16) {
    const Vec8 a0 = LoadUnaligned(row + k);
    const Vec8 a1 = LoadUnaligned(row + k + 8);
#pragma GCC unroll 4
    for (int c = 0; c < Columns; ++c) {
      acc[c][0] = MultiplyAdd(a0, LoadUnaligned(columns + c * ldb + k), acc[c][0]);
      acc[c][1] = MultiplyAdd(a1, LoadUnaligned(columns + c * ldb + k + 8), acc[c][1]);
    }
  }
#pragma GCC unroll 4
  for (int c = 0; c < Columns; ++c) {
    float sum = SumLanes(acc[c][0] + acc[c][1]);
    for (int64_t tail = k; tail < k_count; ++tail) sum += row[tail] * columns[c * ldb + tail];
    sums[c] = sum;
  }
}

inline constexpr int kDotColumns = 4;

// Few rows times a transposed B (dense with a small batch): dot products along K, kDotColumns
// columns at a time, threads over columns.
template <typename Epilogue>
void GemvTransposed(int64_t m_count, int64_t n_count, int64_t k_count, const float* a, const float* b, const Threads& threads,
                    const Epilogue& epilogue) {
  ParallelFor(n_count, threads, 16, [&](int64_t begin, int64_t end) {
    for (int64_t m = 0; m < m_count; ++m) {
      const float* row = a + m * k_count;
      float sums[kDotColumns];
      int64_t n = begin;
      for (; n + kDotColumns <= end; n += kDotColumns) {
        DotProducts<kDotColumns>(k_count, row, b + n * k_count, k_count, sums);
        for (int c = 0; c < kDotColumns; ++c) epilogue(m, n + c, sums[c]);
      }
      for (; n < end; ++n) {
        DotProducts<1>(k_count, row, b + n * k_count, k_count, sums);
        epilogue(m, n, sums[0]);
      }
    }
  });
}

// The products of batches of row-major a (M x K, at a + a_offsets[batch]) and B from
// packer_of(batch), with every (batch, column panel) pair in one parallel loop, so that many
// small matrices (attention heads) share one fork/join instead of one each; epilogue(linear
// output index, value).
template <typename PackerOf, typename Epilogue>
NATIVE_INLINE void BatchedPanels(int64_t batches, const int64_t* a_offsets, int64_t m_count, int64_t n_count,
                                 int64_t k_count, const float* a, const PackerOf& packer_of, const Threads& threads,
                                 const Epilogue& epilogue) {
  const int64_t panels = (n_count + kNR - 1) / kNR;
  ParallelFor(batches * panels, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end;) {
      const int64_t batch = item / panels;
      const int64_t panel_end = (batch + 1) * panels < end ? panels : end - batch * panels;
      GemmPanels(m_count, n_count, k_count, RowMajorA(a + a_offsets[batch], k_count), packer_of(batch),
                 item - batch * panels, panel_end, LinearStore<Epilogue>{epilogue, batch * m_count * n_count, n_count});
      item = batch * panels + panel_end;
    }
  });
}

// out[batch] = a[batch] * b[batch] for row-major a (M x K) and b (K x N, or N x K when
// b_transposed), with per-batch element offsets; epilogue(linear output index, value).
template <typename Epilogue>
NATIVE_INLINE void BatchedMatmul(int64_t batches, const int64_t* a_offsets, const int64_t* b_offsets, int64_t m_count,
                   int64_t n_count, int64_t k_count, bool b_transposed, const float* a, const float* b, const Threads& threads,
                   const Epilogue& epilogue) {
  if (b_transposed && m_count < kMR) {
    for (int64_t batch = 0; batch < batches; ++batch) {
      GemvTransposed(m_count, n_count, k_count, a + a_offsets[batch], b + b_offsets[batch], threads,
                     LinearStore<Epilogue>{epilogue, batch * m_count * n_count, n_count});
    }
    return;
  }
  if (b_transposed) {
    BatchedPanels(batches, a_offsets, m_count, n_count, k_count, a,
                  [&](int64_t batch) { return TransposedPacker{b + b_offsets[batch], k_count}; }, threads, epilogue);
  } else {
    BatchedPanels(batches, a_offsets, m_count, n_count, k_count, a,
                  [&](int64_t batch) { return RowMajorPacker{b + b_offsets[batch], n_count}; }, threads, epilogue);
  }
}

// out[batch] = a[batch] * B for row-major a (M x K) and one constant B (K x N) that
// PackAllPanels packed when the kernel was compiled.
template <typename Epilogue>
NATIVE_INLINE void MatmulPackedWeights(int64_t batches, const int64_t* a_offsets, int64_t m_count, int64_t n_count,
                                       int64_t k_count, const float* a, const float* packed, const Threads& threads,
                                       const Epilogue& epilogue) {
  BatchedPanels(batches, a_offsets, m_count, n_count, k_count, a,
                [&](int64_t) { return PackedPanels{packed, k_count}; }, threads, epilogue);
}

}  // namespace native
