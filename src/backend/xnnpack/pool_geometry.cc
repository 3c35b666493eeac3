#include "backend/xnnpack/pool_geometry.h"

#include <algorithm>

#include "ir/type.h"

namespace collage::xnnpack {
namespace {

// The end padding that makes floor((input + begin + end - dilated_kernel) / stride) + 1 equal
// the checked output extent.
int64_t EndPaddingForExtent(int64_t input, int64_t kernel, int64_t stride, int64_t dilation, int64_t pad_begin,
                            int64_t pad_end, int64_t output) {
  const int64_t dilated_kernel = dilation * (kernel - 1) + 1;
  return std::max(pad_end, (output - 1) * stride + dilated_kernel - input - pad_begin);
}

}  // namespace

PoolGeometry GetPoolGeometry(const CallNode& call) {
  const Shape& in = AsTensorType(call.args[0]->checked_type())->shape;
  const Shape& out = AsTensorType(call.checked_type())->shape;
  const std::vector<int64_t>& pool = call.attrs.GetInts("pool_size");
  const std::vector<int64_t>& strides = call.attrs.GetInts("strides");
  const std::vector<int64_t>& dilation = call.attrs.GetInts("dilation");
  const std::vector<int64_t>& padding = call.attrs.GetInts("padding");  // top, left, bottom, right
  const int64_t bottom = EndPaddingForExtent(in[2], pool[0], strides[0], dilation[0], padding[0], padding[2], out[2]);
  const int64_t right = EndPaddingForExtent(in[3], pool[1], strides[1], dilation[1], padding[1], padding[3], out[3]);
  PoolGeometry geometry;
  geometry.pool_height = static_cast<uint32_t>(pool[0]);
  geometry.pool_width = static_cast<uint32_t>(pool[1]);
  geometry.stride_height = static_cast<uint32_t>(strides[0]);
  geometry.stride_width = static_cast<uint32_t>(strides[1]);
  geometry.dilation_height = static_cast<uint32_t>(dilation[0]);
  geometry.dilation_width = static_cast<uint32_t>(dilation[1]);
  geometry.pad_top = static_cast<uint32_t>(padding[0]);
  geometry.pad_left = static_cast<uint32_t>(padding[1]);
  geometry.pad_bottom = static_cast<uint32_t>(bottom);
  geometry.pad_right = static_cast<uint32_t>(right);
  geometry.ceil_padding = static_cast<uint32_t>((bottom - padding[2]) + (right - padding[3]));
  return geometry;
}

}  // namespace collage::xnnpack
