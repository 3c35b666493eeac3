// 2-D convolutions over NCHW data with OIHW weights. The general case is a GEMM per image
// and group, weights (M = output channels of the group, K = in-channels x KH x KW) times the
// input windows packed on the fly (im2col inside the packer, so no im2col buffer); a 1x1,
// stride-1, unpadded convolution packs the input rows directly. Convolutions with few taps
// per output (depthwise) run a direct kernel vectorized along output rows. The transposed
// convolution is a GEMM whose columns are added into the output planes (col2im).
#pragma once

#include "native_gemm.h"

namespace native {

struct ConvShape {
  int64_t batch, in_channels, in_height, in_width;
  int64_t out_channels, out_height, out_width;
  int64_t kernel_height, kernel_width;
  int64_t stride_h, stride_w, pad_top, pad_left, dilation_h, dilation_w;
  int64_t groups;

  int64_t GroupInChannels() const { return in_channels / groups; }
  int64_t GroupOutChannels() const { return out_channels / groups; }
};

// Packs the im2col matrix of one image and group: row k = (channel, ky, kx), column p = (oy, ox).
// The panel's columns split into runs of one output row each, whose window elements lie along
// one input row: per packed row, a run is a copy between zeros (a strided copy with a bounds
// test where the stride is not 1), not a division.
struct WindowPacker {
  static constexpr bool kBlocksFollowInMemory = false;
  const ConvShape& s;
  const float* image;  // the first input channel of the group

  const float* operator()(int64_t k0, int64_t kc, int64_t n0, int64_t nr, float* packed) const {
    int64_t run_first[kNR];  // the run's first column in the panel
    int64_t run_length[kNR];
    int64_t run_y[kNR];  // oy * stride - pad: the input row before adding ky * dilation
    int64_t run_x[kNR];  // the same for the run's first column
    int64_t runs = 0;
    for (int64_t j = 0; j < nr; j += run_length[runs++]) {
      const int64_t oy = (n0 + j) / s.out_width;
      const int64_t ox = (n0 + j) % s.out_width;
      run_first[runs] = j;
      run_length[runs] = nr - j < s.out_width - ox ? nr - j : s.out_width - ox;
      run_y[runs] = oy * s.stride_h - s.pad_top;
      run_x[runs] = ox * s.stride_w - s.pad_left;
    }
    const int64_t taps = s.kernel_height * s.kernel_width;
    // Row k0 + k is (channel, ky, kx), advanced by one per packed row rather than divided out.
    int64_t channel = k0 / taps;
    int64_t ky = (k0 % taps) / s.kernel_width;
    int64_t kx = k0 % s.kernel_width;
    for (int64_t k = 0; k < kc; ++k, ++kx) {
      if (kx == s.kernel_width) {
        kx = 0;
        if (++ky == s.kernel_height) {
          ky = 0;
          ++channel;
        }
      }
      const float* plane = image + channel * s.in_height * s.in_width;
      float* out = packed + k * kNR;
      for (int64_t r = 0; r < runs; ++r) {
        float* run_out = out + run_first[r];
        const int64_t y = run_y[r] + ky * s.dilation_h;
        if (y < 0 || y >= s.in_height) {
          for (int64_t t = 0; t < run_length[r]; ++t) run_out[t] = 0.0f;
          continue;
        }
        const float* in_row = plane + y * s.in_width;
        const int64_t x0 = run_x[r] + kx * s.dilation_w;
        if (s.stride_w == 1) {  // zeros left of the row, a copy, zeros right of it
          const int64_t length = run_length[r];
          const int64_t begin = x0 >= 0 ? 0 : (-x0 < length ? -x0 : length);
          const int64_t end = s.in_width - x0 < length ? (s.in_width - x0 > begin ? s.in_width - x0 : begin) : length;
          for (int64_t t = 0; t < begin; ++t) run_out[t] = 0.0f;
          for (int64_t t = begin; t < end; ++t) run_out[t] = in_row[x0 + t];
          for (int64_t t = end; t < length; ++t) run_out[t] = 0.0f;
          continue;
        }
        for (int64_t t = 0; t < run_length[r]; ++t) {
          const int64_t x = x0 + t * s.stride_w;
          run_out[t] = x >= 0 && x < s.in_width ? in_row[x] : 0.0f;
        }
      }
      for (int64_t j = nr; j < kNR; ++j) out[j] = 0.0f;
    }
    return packed;
  }
};

// Direct convolution of one output plane (image n, output channel oc) into `row` buffers.
template <typename Epilogue>
void DirectConvPlane(const ConvShape& s, const float* data, const float* weight, int64_t n, int64_t oc, float* acc,
                     const Epilogue& epilogue) {
  const int64_t group = oc / s.GroupOutChannels();
  const int64_t channels = s.GroupInChannels();
  for (int64_t oy = 0; oy < s.out_height; ++oy) {
    for (int64_t ox = 0; ox < s.out_width; ++ox) acc[ox] = 0.0f;
    for (int64_t c = 0; c < channels; ++c) {
      const float* plane = data + ((n * s.in_channels) + group * channels + c) * s.in_height * s.in_width;
      const float* taps = weight + ((oc * channels) + c) * s.kernel_height * s.kernel_width;
      for (int64_t ky = 0; ky < s.kernel_height; ++ky) {
        const int64_t y = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
        if (y < 0 || y >= s.in_height) continue;
        const float* in_row = plane + y * s.in_width;
        for (int64_t kx = 0; kx < s.kernel_width; ++kx) {
          const float w = taps[ky * s.kernel_width + kx];
          const int64_t shift = kx * s.dilation_w - s.pad_left;  // x = ox * stride + shift
          // The outputs whose tap lands inside the row: 0 <= ox * stride + shift < in_width.
          int64_t first = shift >= 0 ? 0 : (-shift + s.stride_w - 1) / s.stride_w;
          int64_t last = s.in_width - shift <= 0 ? 0 : (s.in_width - shift + s.stride_w - 1) / s.stride_w;
          if (last > s.out_width) last = s.out_width;
          if (s.stride_w == 1) {
            const float* source = in_row + shift;
#pragma omp simd
            for (int64_t ox = first; ox < last; ++ox) acc[ox] += w * source[ox];
          } else {
            for (int64_t ox = first; ox < last; ++ox) acc[ox] += w * in_row[ox * s.stride_w + shift];
          }
        }
      }
    }
    const int64_t base = ((n * s.out_channels + oc) * s.out_height + oy) * s.out_width;
    for (int64_t ox = 0; ox < s.out_width; ++ox) epilogue(base + ox, acc[ox]);
  }
}

// epilogue(linear NCHW output index, value).
template <typename Epilogue>
NATIVE_INLINE void Conv2d(const ConvShape& s, const float* data, const float* weight, const Threads& threads, const Epilogue& epilogue) {
  const int64_t k_count = s.GroupInChannels() * s.kernel_height * s.kernel_width;
  const int64_t planes = s.out_height * s.out_width;
  if (k_count < 32 || s.GroupOutChannels() < kMR) {
    ParallelFor(s.batch * s.out_channels, threads, 1, [&](int64_t begin, int64_t end) {
      Scratch<float> acc(s.out_width);
      for (int64_t plane = begin; plane < end; ++plane) {
        DirectConvPlane(s, data, weight, plane / s.out_channels, plane % s.out_channels, acc.data(), epilogue);
      }
    });
    return;
  }
  const bool pointwise = s.kernel_height == 1 && s.kernel_width == 1 && s.stride_h == 1 && s.stride_w == 1 &&
                         s.pad_top == 0 && s.pad_left == 0 && s.out_height == s.in_height && s.out_width == s.in_width;
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t g = 0; g < s.groups; ++g) {
      const float* image = data + (n * s.in_channels + g * s.GroupInChannels()) * s.in_height * s.in_width;
      const float* weights = weight + g * s.GroupOutChannels() * k_count;
      const int64_t base = (n * s.out_channels + g * s.GroupOutChannels()) * planes;
      const LinearStore<Epilogue> store{epilogue, base, planes};
      if (pointwise) {
        Gemm(s.GroupOutChannels(), planes, k_count, RowMajorA(weights, k_count), RowMajorPacker{image, planes}, threads, store);
      } else {
        Gemm(s.GroupOutChannels(), planes, k_count, RowMajorA(weights, k_count), WindowPacker{s, image}, threads, store);
      }
    }
  }
}

// Transposed convolution (weight (in_channels, out_channels / groups, KH, KW)) as a GEMM and
// a col2im, per image and group: the columns cols[(o, ky, kx), (y, x)] = sum_c weight[c, (o,
// ky, kx)] * data[c, (y, x)] (the weights read in place as a column-major A) are added into
// the output planes at (y * stride - pad + ky * dilation, x * stride - pad + kx * dilation).
// Threads split the group's output channels, so no two threads add into one output element,
// and the epilogue sees every finished element once.
template <typename Epilogue>
NATIVE_INLINE void Conv2dTranspose(const ConvShape& s, const float* data, const float* weight, const Threads& threads, const Epilogue& epilogue) {
  const int64_t taps = s.kernel_height * s.kernel_width;
  const int64_t group_in = s.GroupInChannels();
  const int64_t group_out = s.GroupOutChannels();
  const int64_t rows = group_out * taps;
  const int64_t in_plane = s.in_height * s.in_width;
  const int64_t out_plane = s.out_height * s.out_width;
  const int64_t panels = (in_plane + kNR - 1) / kNR;
  // Where input pixel p and tap t land (before the bounds check): row and column offsets.
  Scratch<int64_t> pixel_y(in_plane);
  Scratch<int64_t> pixel_x(in_plane);
  Scratch<int64_t> tap_y(taps);
  Scratch<int64_t> tap_x(taps);
  for (int64_t p = 0; p < in_plane; ++p) {
    pixel_y.data()[p] = (p / s.in_width) * s.stride_h - s.pad_top;
    pixel_x.data()[p] = (p % s.in_width) * s.stride_w - s.pad_left;
  }
  for (int64_t t = 0; t < taps; ++t) {
    tap_y.data()[t] = (t / s.kernel_width) * s.dilation_h;
    tap_x.data()[t] = (t % s.kernel_width) * s.dilation_w;
  }
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t g = 0; g < s.groups; ++g) {
      const float* image = data + (n * s.in_channels + g * group_in) * in_plane;
      const float* weights = weight + g * group_in * rows;
      const int64_t first_plane = n * s.out_channels + g * group_out;
      ParallelFor(group_out, threads, 1, [&](int64_t begin, int64_t end) {
        const int64_t count = (end - begin) * out_plane;
        Scratch<float> sums(count);
        for (int64_t i = 0; i < count; ++i) sums.data()[i] = 0.0f;
        const auto add = [&](int64_t m, int64_t p, float value) {
          const int64_t t = m % taps;
          const int64_t oy = pixel_y.data()[p] + tap_y.data()[t];
          const int64_t ox = pixel_x.data()[p] + tap_x.data()[t];
          if (oy >= 0 && oy < s.out_height && ox >= 0 && ox < s.out_width) {
            sums.data()[(m / taps) * out_plane + oy * s.out_width + ox] += value;
          }
        };
        const MatrixA a{weights + begin * taps, 1, rows};
        GemmPanels((end - begin) * taps, in_plane, group_in, a, RowMajorPacker{image, in_plane}, 0, panels, add);
        const int64_t base = (first_plane + begin) * out_plane;
        for (int64_t i = 0; i < count; ++i) epilogue(base + i, sums.data()[i]);
      });
    }
  }
}

}  // namespace native
