// The operands of oneDNN's int8 convolutions and products besides the activation: constant f32
// weights quantized per output channel (axis 0 as stored) and packed into the primitive's layout
// at compile time, the output scales that dequantize the s32 accumulator, and the bias divided by
// them (oneDNN adds the bias to the accumulator before it applies the output scales).
#pragma once

#include <vector>

#include "backend/onednn/lowering.h"

namespace collage::onednn {

// The largest weight magnitude in integers: 127 with VNNI; 63 without, where oneDNN sums
// u8 x s8 pairs in 16 bits and 7-bit weights keep them from saturating (for s8 activations
// oneDNN halves the weights itself).
int WeightIntegerMax();

struct QuantizedWeights {
  std::vector<float> scales;         // per output channel
  std::vector<float> output_scales;  // activation scale x weight scale, per output channel
};

QuantizedWeights QuantizeConstantWeights(const Tensor& weights, const QuantizationParameters& activation);

// `weights` quantized by `scales`, read through `stored` (an s8 view of their row-major data,
// e.g. transposed strides) and reordered into `packed` at once.
memory PackQuantizedWeights(const Lowering& lowering, const Tensor& weights, const std::vector<float>& scales,
                            const memory::desc& stored, const memory::desc& packed);

// The constant bias `bias` (one value per output channel) over the output scales, in `desc`.
memory ScaledBias(const Lowering& lowering, int bias, const std::vector<float>& output_scales,
                  const memory::desc& desc);

}  // namespace collage::onednn
