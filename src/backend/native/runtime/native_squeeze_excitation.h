// Squeeze-and-excitation in two passes over the data: the channel means (one parallel loop over
// the (sample, channel) planes, or channels-last over (sample, block of channels) pairs, each
// reading its block's contiguous channels pixel after pixel), the two 1x1 layers on them (R x C
// multiply-adds per sample, on the calling thread), then every element times its channel's gate
// through the epilogue (a second parallel loop, over planes or pixels). The means and gates live
// in one scratch vector of samples x channels.
#pragma once

#include "native_rows.h"

namespace native {

struct SqueezeExcitationShape {
  int64_t samples, channels, plane, reduced;
};

// sum over k < count of weights[k] * values[k], vectorized.
NATIVE_INLINE float Dot(int64_t count, const float* weights, const float* values) {
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (int64_t k = 0; k < count; ++k) sum += weights[k] * values[k];
  return sum;
}

// Channels a channels-last pooling task sums: 4 cache lines of each pixel.
inline constexpr int64_t kPoolChannelBlock = 64;

// The channel means into scale[sample * channels + channel].
template <bool ChannelsLast>
NATIVE_INLINE void ChannelMeans(const SqueezeExcitationShape& s, const float* data, float* scale,
                                const Threads& threads) {
  const double plane_size = static_cast<double>(s.plane);
  if constexpr (!ChannelsLast) {
    ParallelFor(s.samples * s.channels, threads, GrainFor(s.plane), [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; ++plane) {
        const float* in = data + plane * s.plane;
        const double sum = LaneSum(s.plane, [&](int64_t p) { return static_cast<double>(in[p]); });
        scale[plane] = static_cast<float>(sum / plane_size);
      }
    });
  } else {
    const int64_t blocks = (s.channels + kPoolChannelBlock - 1) / kPoolChannelBlock;
    ParallelFor(s.samples * blocks, threads, GrainFor(s.plane * kPoolChannelBlock), [&](int64_t begin, int64_t end) {
      for (int64_t task = begin; task < end; ++task) {
        const int64_t n = task / blocks;
        const int64_t first = (task % blocks) * kPoolChannelBlock;
        const int64_t width = s.channels - first < kPoolChannelBlock ? s.channels - first : kPoolChannelBlock;
        double sums[kPoolChannelBlock] = {};
        const float* in = data + n * s.plane * s.channels + first;
        for (int64_t p = 0; p < s.plane; ++p) {
#pragma omp simd
          for (int64_t c = 0; c < width; ++c) sums[c] += static_cast<double>(in[p * s.channels + c]);
        }
        for (int64_t c = 0; c < width; ++c) scale[n * s.channels + first + c] = static_cast<float>(sums[c] / plane_size);
      }
    });
  }
}

// data (N, C, H, W), or (N, H, W, C) when ChannelsLast; reduce_weight (R, C), expand_weight
// (C, R) (the 1x1 kernels' layout); Silu: the activation x * sigmoid(x), else relu; HardGate:
// clip(x * gate_slope + gate_offset, 0, 1), else sigmoid.
template <bool Silu, bool HardGate, bool ChannelsLast, typename Epilogue>
NATIVE_INLINE void SqueezeExcitation(const SqueezeExcitationShape& s, const float* data, const float* reduce_weight,
                                     const float* reduce_bias, const float* expand_weight, const float* expand_bias,
                                     float gate_slope, float gate_offset, const Threads& threads,
                                     const Epilogue& epilogue) {
  using I = EpilogueIndex<Epilogue>;
  const int64_t planes = s.samples * s.channels;
  Scratch<float> scales(planes);
  float* scale = scales.data();
  ChannelMeans<ChannelsLast>(s, data, scale, threads);
  Scratch<float> hidden(s.reduced);
  for (int64_t n = 0; n < s.samples; ++n) {
    float* sample = scale + n * s.channels;
    for (int64_t r = 0; r < s.reduced; ++r) {
      const float x = reduce_bias[r] + Dot(s.channels, reduce_weight + r * s.channels, sample);
      hidden.data()[r] = Silu ? x * Sigmoid(x) : (x > 0.0f ? x : 0.0f);
    }
    for (int64_t c = 0; c < s.channels; ++c) {
      const float x = expand_bias[c] + Dot(s.reduced, expand_weight + c * s.reduced, hidden.data());
      if constexpr (HardGate) {
        const float linear = x * gate_slope + gate_offset;
        sample[c] = linear < 0.0f ? 0.0f : (linear > 1.0f ? 1.0f : linear);
      } else {
        sample[c] = Sigmoid(x);
      }
    }
  }
  if constexpr (!ChannelsLast) {
    const I plane_size = static_cast<I>(s.plane);
    ParallelFor(planes, threads, GrainFor(s.plane), [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; ++plane) {
        const float* in = data + plane * s.plane;
        const float gate = scale[plane];
        const I first = static_cast<I>(plane * s.plane);
        for (I p = 0; p < plane_size; ++p) epilogue(first + p, in[p] * gate);
      }
    });
  } else {
    const I channels = static_cast<I>(s.channels);
    ParallelFor(s.samples * s.plane, threads, GrainFor(s.channels), [&](int64_t begin, int64_t end) {
      for (int64_t pixel = begin; pixel < end; ++pixel) {
        const float* in = data + pixel * s.channels;
        const float* gate = scale + pixel / s.plane * s.channels;
        const I first = static_cast<I>(pixel * s.channels);
        for (I c = 0; c < channels; ++c) epilogue(first + c, in[c] * gate[c]);
      }
    });
  }
}

}  // namespace native
