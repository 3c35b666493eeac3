// 2-D pooling over NCHW planes with the reference's semantics: padded taps never enter a
// max; an average divides by the in-bounds taps, or with count_include_pad by the taps inside
// the padded bounds; a window without in-bounds taps gives -inf (max) or 0 (average).
// Adaptive pools cover [floor(i * in / out), ceil((i + 1) * in / out)) per output cell.
#pragma once

#include "native_runtime.h"

namespace native {

struct PoolShape {
  int64_t planes, in_height, in_width, out_height, out_width;
  int64_t kernel_height, kernel_width, stride_h, stride_w, pad_top, pad_left, pad_bottom, pad_right;
  int64_t dilation_h, dilation_w;
};

template <bool IsMax, typename Epilogue>
NATIVE_INLINE void WindowPool(const PoolShape& s, const float* data, bool count_include_pad, const Threads& threads, const Epilogue& epilogue) {
  ParallelFor(s.planes, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const float* in = data + plane * s.in_height * s.in_width;
      for (int64_t oy = 0; oy < s.out_height; ++oy) {
        for (int64_t ox = 0; ox < s.out_width; ++ox) {
          float maximum = -std::numeric_limits<float>::infinity();
          float sum = 0.0f;
          int64_t count = 0;
          int64_t padded = 0;
          for (int64_t ky = 0; ky < s.kernel_height; ++ky) {
            const int64_t y = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
            for (int64_t kx = 0; kx < s.kernel_width; ++kx) {
              const int64_t x = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
              if (y >= -s.pad_top && y < s.in_height + s.pad_bottom && x >= -s.pad_left && x < s.in_width + s.pad_right) {
                ++padded;
              }
              if (y < 0 || y >= s.in_height || x < 0 || x >= s.in_width) continue;
              const float value = in[y * s.in_width + x];
              maximum = value > maximum ? value : maximum;
              sum += value;
              ++count;
            }
          }
          const int64_t divisor = count_include_pad ? padded : count;
          const float result = IsMax ? maximum : (divisor > 0 ? sum / static_cast<float>(divisor) : 0.0f);
          epilogue((plane * s.out_height + oy) * s.out_width + ox, result);
        }
      }
    }
  });
}

template <bool IsMax, typename Epilogue>
NATIVE_INLINE void AdaptivePool(const PoolShape& s, const float* data, const Threads& threads, const Epilogue& epilogue) {
  ParallelFor(s.planes, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const float* in = data + plane * s.in_height * s.in_width;
      for (int64_t oy = 0; oy < s.out_height; ++oy) {
        const int64_t y0 = oy * s.in_height / s.out_height;
        const int64_t y1 = ((oy + 1) * s.in_height + s.out_height - 1) / s.out_height;
        for (int64_t ox = 0; ox < s.out_width; ++ox) {
          const int64_t x0 = ox * s.in_width / s.out_width;
          const int64_t x1 = ((ox + 1) * s.in_width + s.out_width - 1) / s.out_width;
          float maximum = -std::numeric_limits<float>::infinity();
          float sum = 0.0f;
          for (int64_t y = y0; y < y1; ++y) {
            const float* row = in + y * s.in_width;
            for (int64_t x = x0; x < x1; ++x) {
              maximum = row[x] > maximum ? row[x] : maximum;
              sum += row[x];
            }
          }
          const float count = static_cast<float>((y1 - y0) * (x1 - x0));
          epilogue((plane * s.out_height + oy) * s.out_width + ox, IsMax ? maximum : sum / count);
        }
      }
    }
  });
}

}  // namespace native
