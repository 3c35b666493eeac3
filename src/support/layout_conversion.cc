#include "support/layout_conversion.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "support/error.h"

namespace collage {
namespace {

// Tiles keep both the rows read and the rows written in the first-level cache.
constexpr int64_t kTile = 32;

template <size_t kBytes>
struct Element {
  std::byte bytes[kBytes];
};

// target[column * target_stride + row] = source[row * source_stride + column] for every row <
// rows and column < columns (strides in elements), over kTile x kTile tiles.
template <size_t kBytes>
struct StridedTranspose {
  static void Tile(const Element<kBytes>* source, int64_t source_stride, Element<kBytes>* target,
                   int64_t target_stride, int64_t rows, int64_t columns) {
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t column = 0; column < columns; ++column) {
        target[column * target_stride + row] = source[row * source_stride + column];
      }
    }
  }
};

#if defined(__SSE2__)
// Four-byte elements move as 4 x 4 blocks transposed in registers; the tile's ragged edges
// element by element.
template <>
struct StridedTranspose<4> {
  static void Tile(const Element<4>* source, int64_t source_stride, Element<4>* target, int64_t target_stride,
                   int64_t rows, int64_t columns) {
    const auto* in = reinterpret_cast<const float*>(source);
    auto* out = reinterpret_cast<float*>(target);
    const int64_t whole_rows = rows / 4 * 4;
    const int64_t whole_columns = columns / 4 * 4;
    for (int64_t row = 0; row < whole_rows; row += 4) {
      for (int64_t column = 0; column < whole_columns; column += 4) {
        const float* from = in + row * source_stride + column;
        __m128 first = _mm_loadu_ps(from);
        __m128 second = _mm_loadu_ps(from + source_stride);
        __m128 third = _mm_loadu_ps(from + 2 * source_stride);
        __m128 fourth = _mm_loadu_ps(from + 3 * source_stride);
        _MM_TRANSPOSE4_PS(first, second, third, fourth);
        float* to = out + column * target_stride + row;
        _mm_storeu_ps(to, first);
        _mm_storeu_ps(to + target_stride, second);
        _mm_storeu_ps(to + 2 * target_stride, third);
        _mm_storeu_ps(to + 3 * target_stride, fourth);
      }
      for (int64_t column = whole_columns; column < columns; ++column) {
        for (int64_t r = row; r < row + 4; ++r) out[column * target_stride + r] = in[r * source_stride + column];
      }
    }
    for (int64_t row = whole_rows; row < rows; ++row) {
      for (int64_t column = 0; column < columns; ++column) {
        out[column * target_stride + row] = in[row * source_stride + column];
      }
    }
  }
};
#endif

template <size_t kBytes>
void Transpose(const std::byte* source, int64_t source_stride, std::byte* target, int64_t target_stride, int64_t rows,
               int64_t columns) {
  const auto* in = reinterpret_cast<const Element<kBytes>*>(source);
  auto* out = reinterpret_cast<Element<kBytes>*>(target);
  for (int64_t row_tile = 0; row_tile < rows; row_tile += kTile) {
    for (int64_t column_tile = 0; column_tile < columns; column_tile += kTile) {
      StridedTranspose<kBytes>::Tile(in + row_tile * source_stride + column_tile, source_stride,
                                     out + column_tile * target_stride + row_tile, target_stride,
                                     std::min(kTile, rows - row_tile), std::min(kTile, columns - column_tile));
    }
  }
}

// Copies runs of `count` contiguous elements: run r from source + r * source_stride to
// target + r * target_stride. Whole channel blocks move as one fixed-size value each.
template <size_t kBytes>
void CopyRuns(const std::byte* source, int64_t source_stride, std::byte* target, int64_t target_stride, int64_t runs,
              int64_t count) {
  const auto copy = [&]<size_t kRunBytes>(std::integral_constant<size_t, kRunBytes>) {
    for (int64_t run = 0; run < runs; ++run) {
      *reinterpret_cast<Element<kRunBytes>*>(target + run * target_stride * static_cast<int64_t>(kBytes)) =
          *reinterpret_cast<const Element<kRunBytes>*>(source + run * source_stride * static_cast<int64_t>(kBytes));
    }
  };
  if (count == 8) return copy(std::integral_constant<size_t, 8 * kBytes>{});
  if (count == 16) return copy(std::integral_constant<size_t, 16 * kBytes>{});
  const auto* in = reinterpret_cast<const Element<kBytes>*>(source);
  auto* out = reinterpret_cast<Element<kBytes>*>(target);
  for (int64_t run = 0; run < runs; ++run) {
    for (int64_t element = 0; element < count; ++element) {
      out[run * target_stride + element] = in[run * source_stride + element];
    }
  }
}

// One image of a rank-4 tensor: `channels` x `pixels` logical elements, moved between two
// different layouts of which at most one is channel-blocked.
template <size_t kBytes>
void ConvertImage(const std::byte* source, Layout from, std::byte* target, Layout to, int64_t channels,
                  int64_t pixels) {
  const int64_t from_block = ChannelBlock(from);
  const int64_t to_block = ChannelBlock(to);
  if (from_block == 0 && to_block == 0) {
    // Plain [C, HW] and channels-last [HW, C] are each other's transpose.
    if (to == Layout::kChannelsLast) return Transpose<kBytes>(source, pixels, target, channels, channels, pixels);
    return Transpose<kBytes>(source, channels, target, pixels, pixels, channels);
  }
  // A blocked buffer is [ceil(C / B)][HW][B]: block `first / B` holds channels first ..
  // first + count - 1 of every pixel.
  const int64_t block = std::max(from_block, to_block);
  const Layout other = from_block == 0 ? from : to;
  for (int64_t first = 0; first < channels; first += block) {
    const int64_t count = std::min(block, channels - first);
    const int64_t blocked_offset = first * pixels * static_cast<int64_t>(kBytes);
    const int64_t other_offset = (other == Layout::kChannelsLast ? first : first * pixels) * static_cast<int64_t>(kBytes);
    if (to_block != 0 && other == Layout::kPlain) {
      Transpose<kBytes>(source + other_offset, pixels, target + blocked_offset, block, count, pixels);
    } else if (to_block != 0) {
      CopyRuns<kBytes>(source + other_offset, channels, target + blocked_offset, block, pixels, count);
    } else if (other == Layout::kPlain) {
      Transpose<kBytes>(source + blocked_offset, block, target + other_offset, pixels, pixels, count);
    } else {
      CopyRuns<kBytes>(source + blocked_offset, block, target + other_offset, channels, pixels, count);
    }
  }
}

template <size_t kBytes>
struct ConvertImages {
  static void Run(const std::byte* source, Layout from, std::byte* target, Layout to, const Shape& logical) {
    const int64_t images = logical[0];
    const int64_t source_image = NumElements(PhysicalShape(logical, from)) / std::max<int64_t>(images, 1);
    const int64_t target_image = NumElements(PhysicalShape(logical, to)) / std::max<int64_t>(images, 1);
    for (int64_t image = 0; image < images; ++image) {
      ConvertImage<kBytes>(source + image * source_image * static_cast<int64_t>(kBytes), from,
                           target + image * target_image * static_cast<int64_t>(kBytes), to, logical[1],
                           logical[2] * logical[3]);
    }
  }
};

template <template <size_t> typename Kernel, typename... Arguments>
void ForElementSize(size_t element_bytes, Arguments&&... arguments) {
  switch (element_bytes) {
    case 1:
      return Kernel<1>::Run(std::forward<Arguments>(arguments)...);
    case 2:
      return Kernel<2>::Run(std::forward<Arguments>(arguments)...);
    case 4:
      return Kernel<4>::Run(std::forward<Arguments>(arguments)...);
    case 8:
      return Kernel<8>::Run(std::forward<Arguments>(arguments)...);
    default:
      throw Error("ConvertLayout: unsupported element size " + std::to_string(element_bytes));
  }
}

}  // namespace

void ConvertLayout(const void* source, Layout from, void* target, Layout to, const Shape& logical,
                   size_t element_bytes) {
  const auto* in = static_cast<const std::byte*>(source);
  auto* out = static_cast<std::byte*>(target);
  if (LayoutsShareBytes(logical, from, to)) {
    const size_t bytes = static_cast<size_t>(NumElements(PhysicalShape(logical, from))) * element_bytes;
    if (bytes > 0 && in != out) std::memmove(out, in, bytes);
    return;
  }
  Check(in != out, "ConvertLayout: a rearranging conversion cannot work in place");
  if (ChannelBlock(from) != 0 && ChannelBlock(to) != 0) {
    // Between two block sizes: through the plain layout.
    std::vector<std::byte> plain(static_cast<size_t>(NumElements(logical)) * element_bytes);
    ConvertLayout(source, from, plain.data(), Layout::kPlain, logical, element_bytes);
    return ConvertLayout(plain.data(), Layout::kPlain, target, to, logical, element_bytes);
  }
  const int64_t to_block = ChannelBlock(to);
  if (to_block != 0 && logical[1] % to_block != 0) {
    // The last block's padding channels hold zeros.
    std::memset(out, 0, static_cast<size_t>(NumElements(PhysicalShape(logical, to))) * element_bytes);
  }
  ForElementSize<ConvertImages>(element_bytes, in, from, out, to, logical);
}

Tensor ConvertedLayout(const Tensor& source, Layout from, Layout to, const Shape& logical) {
  if (LayoutsShareBytes(logical, from, to)) return source.Reshaped(PhysicalShape(logical, to));
  Tensor target = Tensor::Zeros(source.dtype(), PhysicalShape(logical, to));
  ConvertLayout(source, from, target, to, logical);
  return target;
}

void ConvertLayout(const Tensor& source, Layout from, Tensor& target, Layout to, const Shape& logical) {
  if (source.dtype() != target.dtype() || source.shape() != PhysicalShape(logical, from) ||
      target.shape() != PhysicalShape(logical, to)) {
    throw Error("ConvertLayout: expected a " + std::string(LayoutName(from)) + " buffer of shape " +
                ShapeToString(PhysicalShape(logical, from)) + " and a " + std::string(LayoutName(to)) +
                " buffer of shape " + ShapeToString(PhysicalShape(logical, to)) + ", got " +
                ShapeToString(source.shape()) + " and " + ShapeToString(target.shape()));
  }
  ConvertLayout(source.raw_data(), from, target.raw_data(), to, logical, DTypeSize(source.dtype()));
}

}  // namespace collage
