#include "support/layout_conversion.h"

#include <algorithm>
#include <cstring>

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

}  // namespace

void ConvertLayout(const void* source, Layout from, void* target, Layout to, const Shape& logical,
                   size_t element_bytes) {
  const auto* in = static_cast<const std::byte*>(source);
  auto* out = static_cast<std::byte*>(target);
  const size_t bytes = static_cast<size_t>(NumElements(logical)) * element_bytes;
  if (LayoutsShareBytes(logical, from, to)) {
    if (bytes > 0 && in != out) std::memmove(out, in, bytes);
    return;
  }
  Check(in != out, "ConvertLayout: a transposing conversion cannot work in place");
  // Plain [N, C, HW] to channels-last [N, HW, C] transposes C x HW per batch; back, HW x C.
  const int64_t channels = logical[1];
  const int64_t pixels = logical[2] * logical[3];
  const bool to_channels_last = to == Layout::kChannelsLast;
  const int64_t rows = to_channels_last ? channels : pixels;
  const int64_t columns = to_channels_last ? pixels : channels;
  switch (element_bytes) {
    case 1:
      return TransposeBatches<1>(in, out, logical[0], rows, columns);
    case 2:
      return TransposeBatches<2>(in, out, logical[0], rows, columns);
    case 4:
      return TransposeBatches<4>(in, out, logical[0], rows, columns);
    case 8:
      return TransposeBatches<8>(in, out, logical[0], rows, columns);
    default:
      throw Error("ConvertLayout: unsupported element size " + std::to_string(element_bytes));
  }
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
