// Depthwise convolutions the executable computes itself between XNNPACK runtimes, on CPUs with
// AVX-512: XNNPACK's (2022-02) depthwise microkernels compute one output pixel at a time
// through an indirection buffer, so each input vector is loaded once per tap and every pixel's
// sum is one chain of dependent multiply-adds. The host loop computes eight pixels of a row at
// once, loading each input vector of a kernel row once for all of them. Square 3x3 and 5x5
// kernels with stride 1 or 2, no dilation, one output channel per input channel, any padding;
// everything else, smaller inputs than kMinHostOpElements and other CPUs stay in XNNPACK.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "ir/expr.h"
#include "support/tensor.h"

namespace collage::xnnpack {

// out[s, y, x, c] = clamp(bias[c] + sum over (ky, kx) inside the input of
//   in[s, y * stride - pad_top + ky, x * stride - pad_left + kx, c] * weights[(ky * kernel + kx) * channels + c],
//   output_min, output_max), then x * sigmoid(x) of that when `silu`,
// on channels-last buffers: a relu or clip after the convolution becomes the bounds, a SiLU
// the flag (partition_steps.h).
struct HostDepthwise {
  int64_t samples = 0;
  int64_t channels = 0;
  int64_t in_height = 0, in_width = 0;
  int64_t out_height = 0, out_width = 0;
  int kernel = 3;
  int stride = 1;
  int64_t pad_top = 0, pad_left = 0;
  std::vector<float> weights;  // [kernel, kernel, channels]
  std::vector<float> bias;     // [channels], zeros without one
  float output_min = -std::numeric_limits<float>::infinity();
  float output_max = std::numeric_limits<float>::infinity();
  bool silu = false;
};

// The convolution the executable computes `conv` (an nn.conv2d) with, `bias` folded in when
// given (bias_fusion.h); nullopt when XNNPACK should.
std::optional<HostDepthwise> HostDepthwiseOf(const CallNode& conv, const Tensor* bias);

// Computes `depthwise`, split over `threads` OpenMP threads by (sample, output row, group of
// channels). `in` and `out` must not overlap.
void RunHostDepthwise(const HostDepthwise& depthwise, const float* in, float* out, int threads);

// The depthwise convolution of an expanding 1x1 convolution (the first half of an inverted
// residual block: expand, activation, depthwise, activation), with the expanded image never
// written whole: each thread expands the input rows of its band of output rows into a ring of
// `kernel` rows that stays in its cache, and convolves them from there. The expanded image is
// the largest tensor of such blocks (4.8 MB in mobilenet_v2's second one) and its round trip
// through memory, not the arithmetic, dominated both halves.
struct HostExpandedDepthwise {
  HostDepthwise depthwise;  // in_* and channels describe the expanded image
  int64_t in_channels = 0;
  std::vector<float> expand_weights;  // [in_channels, channels]
  std::vector<float> expand_bias;     // [channels], zeros without one
  float expand_min = -std::numeric_limits<float>::infinity();
  float expand_max = std::numeric_limits<float>::infinity();
  bool expand_silu = false;
};

// Computes `expanded` from `in`, [samples, in_height, in_width, in_channels], split over
// `threads` OpenMP threads by (sample, band of output rows).
void RunHostExpandedDepthwise(const HostExpandedDepthwise& expanded, const float* in, float* out, int threads);

}  // namespace collage::xnnpack
