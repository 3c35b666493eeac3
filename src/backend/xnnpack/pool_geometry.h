// The window of an nn.max_pool2d / nn.avg_pool2d call as XNNPACK's pooling nodes take it:
// explicit top/right/bottom/left padding with floor rounding. torch's ceil_mode becomes extra
// bottom/right padding, which max pooling ignores (XNNPACK clamps taps to the input) but
// average pooling would count, so the support rules allow it only for max pooling.
#pragma once

#include <cstdint>

#include "ir/expr.h"

namespace collage::xnnpack {

struct PoolGeometry {
  uint32_t pool_height = 1, pool_width = 1;
  uint32_t stride_height = 1, stride_width = 1;
  uint32_t dilation_height = 1, dilation_width = 1;
  uint32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  // Bottom/right padding added to reproduce ceil_mode (0 without ceil_mode).
  uint32_t ceil_padding = 0;
};

// For a type-checked nn.max_pool2d or nn.avg_pool2d call.
PoolGeometry GetPoolGeometry(const CallNode& call);

}  // namespace collage::xnnpack
