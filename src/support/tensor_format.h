// The format of a tensor in memory: its layout and its element type.
//
// A layout says how a tensor's logical elements (indexed in the IR's axis order) are laid out
// in its buffer. The plain layout is the IR's row-major order (NCHW for an image batch). The
// channels-last layout stores a rank-4 tensor [N, C, H, W] as [N, H, W, C]; tensors of any
// other rank are plain in it, so a layout can be chosen for a whole partition's boundary. A
// buffer's byte size never depends on its layout.
//
// Values that cross a partition boundary carry a format; the executor converts between
// formats only where a producer's and a consumer's differ.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "support/dtype.h"
#include "support/shape.h"

namespace collage {

enum class Layout {
  kPlain,         // row-major in the IR's axis order
  kChannelsLast,  // rank 4: [N, H, W, C]; other ranks: plain
};

// "plain" or "nhwc".
const char* LayoutName(Layout layout);
// The layout of that name, or nullopt.
std::optional<Layout> ParseLayout(std::string_view name);

// The buffer's shape: the logical shape with its axes in storage order; LogicalShape inverts it.
Shape PhysicalShape(const Shape& logical, Layout layout);
Shape LogicalShape(const Shape& physical, Layout layout);
// True when a tensor of this logical shape has the same bytes in both layouts (for channels-last:
// not rank 4, a single channel, or a single pixel), so converting between them is a copy.
bool LayoutsShareBytes(const Shape& logical, Layout first, Layout second);

struct TensorFormat {
  Layout layout = Layout::kPlain;
  DType dtype = DType::kF32;

  bool operator==(const TensorFormat& other) const = default;
};

// "nhwc/f32".
std::string FormatName(const TensorFormat& format);

}  // namespace collage
