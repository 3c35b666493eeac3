#include "support/layout_conversion.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "support/error.h"

namespace collage {
namespace {

// Tiles keep both the rows read and the rows written in the first-level cache.
constexpr int64_t kTile = 16;

// Per batch: target[column * rows + row] = source[row * columns + column], for fixed-size
// elements so the compiler moves them as words.
template <size_t kBytes>
void TransposeBatches(const std::byte* source, std::byte* target, int64_t batches, int64_t rows, int64_t columns) {
  struct Element {
    std::byte bytes[kBytes];
  };
  const auto* in = reinterpret_cast<const Element*>(source);
  auto* out = reinterpret_cast<Element*>(target);
  for (int64_t batch = 0; batch < batches; ++batch) {
    const Element* in_batch = in + batch * rows * columns;
    Element* out_batch = out + batch * rows * columns;
    for (int64_t row_tile = 0; row_tile < rows; row_tile += kTile) {
      const int64_t row_end = std::min(rows, row_tile + kTile);
      for (int64_t column_tile = 0; column_tile < columns; column_tile += kTile) {
        const int64_t column_end = std::min(columns, column_tile + kTile);
        for (int64_t row = row_tile; row < row_end; ++row) {
          for (int64_t column = column_tile; column < column_end; ++column) {
            out_batch[column * rows + row] = in_batch[row * columns + column];
          }
        }
      }
    }
  }
}

// Where the logical element (image n, channel c, pixel p) of a rank-4 tensor lies in a
// layout's buffer, in elements: n * image + (c / block_size) * block + (c % block_size) *
// channel + p * pixel. The plain and channels-last layouts are one block of all channels.
struct ElementStrides {
  int64_t image = 0, block = 0, channel = 0, pixel = 0, block_size = 1;

  ElementStrides(const Shape& logical, Layout layout) {
    const int64_t channels = logical[1];
    const int64_t pixels = logical[2] * logical[3];
    if (const int64_t size = ChannelBlock(layout)) {
      block_size = size;
      pixel = size;
      block = pixels * size;
      channel = 1;
      image = (channels + size - 1) / size * block;
      return;
    }
    block_size = std::max<int64_t>(channels, 1);
    image = channels * pixels;
    channel = layout == Layout::kChannelsLast ? 1 : pixels;
    pixel = layout == Layout::kChannelsLast ? channels : 1;
  }
  int64_t OfChannel(int64_t c) const { return c / block_size * block + c % block_size * channel; }
};

// Copies every logical element of a rank-4 tensor between two layouts, writing the target in
// storage order: plain pixel by pixel within a channel, the others channel by channel within a
// pixel of each target block.
template <size_t kBytes>
void Rearrange(const std::byte* source, const ElementStrides& from, std::byte* target, const ElementStrides& to,
               const Shape& logical) {
  struct Element {
    std::byte bytes[kBytes];
  };
  const auto* in = reinterpret_cast<const Element*>(source);
  auto* out = reinterpret_cast<Element*>(target);
  const int64_t channels = logical[1];
  const int64_t pixels = logical[2] * logical[3];
  std::vector<int64_t> from_channel(static_cast<size_t>(channels));
  std::vector<int64_t> to_channel(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    from_channel[static_cast<size_t>(c)] = from.OfChannel(c);
    to_channel[static_cast<size_t>(c)] = to.OfChannel(c);
  }
  for (int64_t image = 0; image < logical[0]; ++image) {
    const Element* in_image = in + image * from.image;
    Element* out_image = out + image * to.image;
    if (to.pixel == 1) {
      for (int64_t c = 0; c < channels; ++c) {
        const Element* in_channel = in_image + from_channel[static_cast<size_t>(c)];
        Element* out_channel = out_image + to_channel[static_cast<size_t>(c)];
        for (int64_t p = 0; p < pixels; ++p) out_channel[p] = in_channel[p * from.pixel];
      }
      continue;
    }
    for (int64_t first = 0; first < channels; first += to.block_size) {
      const int64_t count = std::min(channels - first, to.block_size);
      const int64_t* from_block = from_channel.data() + first;
      Element* out_block = out_image + to_channel[static_cast<size_t>(first)];
      for (int64_t p = 0; p < pixels; ++p) {
        const Element* in_pixel = in_image + p * from.pixel;
        Element* out_pixel = out_block + p * to.pixel;
        for (int64_t c = 0; c < count; ++c) out_pixel[c] = in_pixel[from_block[c]];
      }
    }
  }
}

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

template <size_t kBytes>
struct TransposeKernel {
  static void Run(const std::byte* source, std::byte* target, int64_t batches, int64_t rows, int64_t columns) {
    TransposeBatches<kBytes>(source, target, batches, rows, columns);
  }
};

template <size_t kBytes>
struct RearrangeKernel {
  static void Run(const std::byte* source, const ElementStrides& from, std::byte* target, const ElementStrides& to,
                  const Shape& logical) {
    Rearrange<kBytes>(source, from, target, to, logical);
  }
};

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
  if (ChannelBlock(from) == 0 && ChannelBlock(to) == 0) {
    // Plain [N, C, HW] to channels-last [N, HW, C] transposes C x HW per batch; back, HW x C.
    const int64_t channels = logical[1];
    const int64_t pixels = logical[2] * logical[3];
    const bool to_channels_last = to == Layout::kChannelsLast;
    return ForElementSize<TransposeKernel>(element_bytes, in, out, logical[0], to_channels_last ? channels : pixels,
                                           to_channels_last ? pixels : channels);
  }
  const int64_t to_block = ChannelBlock(to);
  if (to_block != 0 && logical[1] % to_block != 0) {
    // The last block's padding channels hold zeros.
    std::memset(out, 0, static_cast<size_t>(NumElements(PhysicalShape(logical, to))) * element_bytes);
  }
  ForElementSize<RearrangeKernel>(element_bytes, in, ElementStrides(logical, from), out, ElementStrides(logical, to),
                                  logical);
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
