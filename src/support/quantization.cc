#include "support/quantization.h"

#include <algorithm>
#include <cmath>

#include "support/error.h"
#include "support/statistics.h"

namespace collage {
namespace {

constexpr float kS8Max = 127;
constexpr float kU8Max = 255;

float ScaleFor(float magnitude, float integer_max) { return magnitude > 0 ? magnitude / integer_max : 1.0f; }

}  // namespace

QuantizationParameters ActivationQuantization(const ActivationRange& range) {
  if (range.min >= 0) return {DType::kU8, ScaleFor(range.max, kU8Max), 0};
  return {DType::kI8, ScaleFor(std::max(-range.min, range.max), kS8Max), 0};
}

std::vector<float> PerChannelWeightScales(const Tensor& weights, int integer_max) {
  Check(weights.dtype() == DType::kF32 && weights.rank() >= 1, "PerChannelWeightScales: f32 weights of rank >= 1");
  const int64_t channels = weights.shape()[0];
  const int64_t per_channel = channels == 0 ? 0 : weights.NumElements() / channels;
  const float* data = weights.data<float>();
  std::vector<float> scales(static_cast<size_t>(channels));
  for (int64_t channel = 0; channel < channels; ++channel) {
    float magnitude = 0;
    for (int64_t i = 0; i < per_channel; ++i) magnitude = std::max(magnitude, std::fabs(data[channel * per_channel + i]));
    scales[static_cast<size_t>(channel)] = ScaleFor(magnitude, static_cast<float>(integer_max));
  }
  return scales;
}

Tensor QuantizeWeights(const Tensor& weights, const std::vector<float>& scales) {
  Check(weights.dtype() == DType::kF32 && weights.rank() >= 1 &&
            static_cast<int64_t>(scales.size()) == weights.shape()[0],
        "QuantizeWeights: one scale per output channel of f32 weights");
  Tensor quantized = Tensor::Zeros(DType::kI8, weights.shape());
  const int64_t per_channel = scales.empty() ? 0 : weights.NumElements() / static_cast<int64_t>(scales.size());
  const float* data = weights.data<float>();
  int8_t* out = quantized.data<int8_t>();
  for (size_t channel = 0; channel < scales.size(); ++channel) {
    const QuantizationParameters parameters{DType::kI8, scales[channel], 0};
    for (int64_t i = 0; i < per_channel; ++i) {
      const int64_t index = static_cast<int64_t>(channel) * per_channel + i;
      out[index] = static_cast<int8_t>(QuantizeValue(data[index], parameters));
    }
  }
  return quantized;
}

int32_t QuantizeValue(float value, const QuantizationParameters& parameters) {
  const float low = parameters.dtype == DType::kU8 ? 0 : -kS8Max - 1;
  const float high = parameters.dtype == DType::kU8 ? kU8Max : kS8Max;
  const float shifted = std::nearbyint(value / parameters.scale) + static_cast<float>(parameters.zero_point);
  return static_cast<int32_t>(std::clamp(shifted, low, high));
}

float Dequantize(int32_t quantized, const QuantizationParameters& parameters) {
  return static_cast<float>(quantized - parameters.zero_point) * parameters.scale;
}

ActivationRange RangeOf(std::vector<float> values, double percentile) {
  if (values.empty()) return {};
  Check(percentile > 50 && percentile <= 100, "RangeOf: the percentile must be in (50, 100]");
  if (percentile >= 100) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return {*low, *high};
  }
  const std::vector<double> wide(values.begin(), values.end());
  return {static_cast<float>(Quantile(wide, 1 - percentile / 100)), static_cast<float>(Quantile(wide, percentile / 100))};
}

ActivationRange Widen(const ActivationRange& first, const ActivationRange& second) {
  return {std::min(first.min, second.min), std::max(first.max, second.max)};
}

}  // namespace collage
