// The format of a tensor in memory: its layout and its element type.
//
// A layout says how a tensor's logical elements (indexed in the IR's axis order) are laid out
// in its buffer. The plain layout is the IR's row-major order (NCHW for an image batch). The
// other layouts rearrange rank-4 tensors [N, C, H, W] only; tensors of any other rank are plain
// in them, so a layout can be chosen for a whole partition's boundary:
// - channels-last stores [N, H, W, C];
// - channel-blocked by B stores [N, ceil(C/B), H, W, B]: blocks of B channels, each block's
//   pixels in turn with their B channels together, the last block padded with zeros. This is
//   the layout convolution libraries prefer on SIMD hardware (oneDNN's nChw8c and nChw16c).
// A buffer's byte size is its PhysicalShape's: the logical size, plus the padding of a
// channel-blocked layout.
//
// Values that cross a partition boundary carry a format; the executor converts between
// formats only where a producer's and a consumer's differ.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/dtype.h"
#include "support/shape.h"

namespace collage {

enum class Layout {
  kPlain,              // row-major in the IR's axis order
  kChannelsLast,       // rank 4: [N, H, W, C]
  kChannelBlocked8,    // rank 4: [N, ceil(C/8), H, W, 8]
  kChannelBlocked16,   // rank 4: [N, ceil(C/16), H, W, 16]
};

// Every layout, plain first.
const std::vector<Layout>& AllLayouts();

// "plain", "nhwc", "nchw8c" or "nchw16c".
const char* LayoutName(Layout layout);
// The layout of that name, or nullopt.
std::optional<Layout> ParseLayout(std::string_view name);
// "plain, nhwc, nchw8c, nchw16c": what an error message expects.
std::string LayoutNames();

// The channel block of a channel-blocked layout; 0 for the others.
int64_t ChannelBlock(Layout layout);

// The buffer's shape: the logical shape with its axes in storage order (and, channel-blocked,
// split into blocks).
Shape PhysicalShape(const Shape& logical, Layout layout);
// True when a tensor of this logical shape has the same bytes in both layouts (rank other
// than 4; plain and channels-last with a single channel or a single pixel; with a channel-
// blocked one, a single pixel and whole blocks), so converting between them is a copy.
bool LayoutsShareBytes(const Shape& logical, Layout first, Layout second);

struct TensorFormat {
  Layout layout = Layout::kPlain;
  DType dtype = DType::kF32;

  bool operator==(const TensorFormat& other) const = default;
};

// `name` followed by the layout unless it is plain and the precision unless it is f32, in
// brackets: how listings name a backend's partition ("onednn [nchw8c]", "onednn [nchw8c i8]").
std::string WithLayoutSuffix(const std::string& name, Layout layout, DType precision = DType::kF32);

// "nhwc/f32".
std::string FormatName(const TensorFormat& format);

}  // namespace collage
