// Mechanisms shared by the neural-network and image op definitions (src/op/nn*.cc,
// src/op/image.cc): checked reading of list, boolean and enumerated attributes, the
// geometry of 2-D sliding windows over NCHW tensors, the outer/extent/inner split of a
// shape around one axis, and the wrapper that turns an f32 loop nest into a checked
// reference kernel.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "ir/attrs.h"
#include "ir/op_registry.h"
#include "support/tensor.h"

namespace collage {

// The spatial axes of an NCHW tensor, in order: axis 2 is "height", axis 3 is "width".
inline constexpr std::array<const char*, 2> kSpatialAxisNames = {"height", "width"};

// The int list attribute `name`, which must have exactly `count` entries, each at least
// `min_value`; TypeError naming the attribute otherwise.
std::vector<int64_t> GetIntList(const Attrs& attrs, const std::string& name, size_t count, int64_t min_value);
// The int attribute `name` read as a boolean; TypeError unless it is 0 or 1.
bool GetFlag(const Attrs& attrs, const std::string& name);
// The string attribute `name`, which must be one of `choices`; TypeError listing them otherwise.
const std::string& GetChoice(const Attrs& attrs, const std::string& name, std::initializer_list<const char*> choices);
// The int attribute `name`, which must be at least `min_value`.
int64_t GetIntAtLeast(const Attrs& attrs, const std::string& name, int64_t min_value);

// Strides, dilation and padding of a sliding window over the two spatial axes. Index 0 is
// the height axis, 1 the width axis. Strides and dilation are >= 1, padding >= 0.
struct Window2D {
  std::array<int64_t, 2> strides{1, 1};
  std::array<int64_t, 2> dilation{1, 1};
  std::array<int64_t, 2> pad_begin{0, 0};  // top, left
  std::array<int64_t, 2> pad_end{0, 0};    // bottom, right

  // Position along `axis` of tap `kernel_index` of the window number `window_index`; it may
  // fall into the padding, i.e. outside [0, input extent).
  int64_t TapPosition(int axis, int64_t window_index, int64_t kernel_index) const {
    return window_index * strides[axis] - pad_begin[axis] + kernel_index * dilation[axis];
  }
};

// Reads the attributes "strides" (2 ints), "padding" (4 ints: top, left, bottom, right) and
// "dilation" (2 ints).
Window2D GetWindow2D(const Attrs& attrs);

// The number of window positions along spatial `axis`: floor((input + pads - dilated kernel)
// / stride) + 1, or with `ceil_mode` the ceiling, dropping a last window that would start
// beyond the input and its begin padding (torch/ONNX). `kernel_name` names the kernel in
// messages ("weight", "pool_size"). Throws TypeError naming the axis when the kernel extent
// is not positive or the result would not be positive.
int64_t WindowOutputExtent(int64_t input_extent, int64_t kernel_extent, int axis, const Window2D& window,
                           bool ceil_mode, const std::string& kernel_name);

// A shape seen as [outer, extent, inner] around one axis: element (o, e, i) is at flat index
// (o * extent + e) * inner + i.
struct AxisSplit {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;

  int64_t FlatIndex(int64_t outer_index, int64_t extent_index, int64_t inner_index) const {
    return (outer_index * extent + extent_index) * inner + inner_index;
  }
};
AxisSplit SplitAtAxis(const Shape& shape, int64_t axis);

// Checks that argument `index` is a 1-D tensor of `extent` elements with the dtype of
// `data`; `extent_source` says where the extent comes from (for messages).
void ExpectVectorArg(const std::vector<Type>& arg_types, size_t index, const std::string& name, int64_t extent,
                     const std::string& extent_source, const TensorTypeNode& data);

// The body of an f32 reference kernel: fills `result` (zero-initialized, of the checked
// result type) from `args`.
using F32KernelBody = std::function<void(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result)>;

// A reference kernel that checks every argument is f32 (Error naming the op otherwise),
// re-runs `relation` on the arguments' actual types so that a body never reads out of
// bounds, allocates the single tensor result and runs `body`.
ReferenceKernel MakeF32Kernel(std::string op_name, TypeRelation relation, F32KernelBody body);

}  // namespace collage
