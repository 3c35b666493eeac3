// Linear quantization of f32 tensors to 8-bit integers: q = round(x / scale) + zero_point,
// saturated to the integer type; x ~ (q - zero_point) * scale.
//
// Activations take one scale per tensor from a calibrated range: a range that never goes below
// zero (after a ReLU) becomes u8 over [0, max], any other s8 symmetric over [-m, m] with
// m = max(|min|, |max|). Both keep the zero point at 0, so integer kernels need no zero-point
// compensation. Weights take one symmetric s8 scale per output channel (axis 0).
// A zero range gets scale 1: every value quantizes to 0 exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "support/dtype.h"
#include "support/tensor.h"

namespace collage {

// The least and greatest value an activation took on the calibration inputs (or the chosen
// percentiles of its values).
struct ActivationRange {
  float min = 0;
  float max = 0;
  bool operator==(const ActivationRange& other) const = default;
};

struct QuantizationParameters {
  DType dtype = DType::kU8;  // kU8 or kI8
  float scale = 1;
  int32_t zero_point = 0;
  bool operator==(const QuantizationParameters& other) const = default;
};

QuantizationParameters ActivationQuantization(const ActivationRange& range);

// Per output channel (axis 0 of `weights`, f32): max |w| / integer_max (1 for an all-zero
// channel). integer_max is 127, or 63 for kernels that sum u8 x s8 pairs in 16 bits (x86
// without VNNI), where 255 x 127 x 2 would saturate.
std::vector<float> PerChannelWeightScales(const Tensor& weights, int integer_max = 127);
// `weights` as s8 with those scales.
Tensor QuantizeWeights(const Tensor& weights, const std::vector<float>& scales);

// One value quantized (round half to even, saturated) and dequantized again.
int32_t QuantizeValue(float value, const QuantizationParameters& parameters);
float Dequantize(int32_t quantized, const QuantizationParameters& parameters);

// The range of `values`: min and max, or with `percentile` p in (50, 100) the p-th and
// (100 - p)-th percentiles of them (outliers clipped). Empty values: {0, 0}.
ActivationRange RangeOf(std::vector<float> values, double percentile = 100);
// The union of two ranges.
ActivationRange Widen(const ActivationRange& first, const ActivationRange& second);

}  // namespace collage
