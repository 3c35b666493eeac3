#include "backend/onednn/quantized_operands.h"

#include "support/cpu_features.h"

namespace collage::onednn {

int WeightIntegerMax() { return DetectReducedPrecisionIsa().vnni ? 127 : 63; }

QuantizedWeights QuantizeConstantWeights(const Tensor& weights, const QuantizationParameters& activation) {
  QuantizedWeights quantized;
  quantized.scales = PerChannelWeightScales(weights, WeightIntegerMax());
  for (float scale : quantized.scales) quantized.output_scales.push_back(activation.scale * scale);
  return quantized;
}

memory PackQuantizedWeights(const Lowering& lowering, const Tensor& weights, const std::vector<float>& scales,
                            const memory::desc& stored, const memory::desc& packed) {
  Tensor quantized = QuantizeWeights(weights, scales);
  memory source(stored, lowering.engine(), quantized.raw_data());
  memory target(packed, lowering.engine());
  dnnl::stream stream(lowering.engine());
  dnnl::reorder(source, target).execute(stream, source, target);
  stream.wait();
  return target;
}

memory ScaledBias(const Lowering& lowering, int bias, const std::vector<float>& output_scales,
                  const memory::desc& desc) {
  const Tensor& values = lowering.value(bias).constant;
  if (values.NumElements() != static_cast<int64_t>(output_scales.size())) {
    lowering.Fail("an int8 product's bias holds " + std::to_string(values.NumElements()) + " values for " +
                  std::to_string(output_scales.size()) + " channels");
  }
  memory scaled(desc, lowering.engine());
  float* data = static_cast<float*>(scaled.get_data_handle());
  for (size_t channel = 0; channel < output_scales.size(); ++channel) {
    data[channel] = static_cast<float>(values.GetAsDouble(static_cast<int64_t>(channel))) / output_scales[channel];
  }
  return scaled;
}

}  // namespace collage::onednn
