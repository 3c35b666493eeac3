#include "backend/xnnpack/layout.h"

#include "support/layout_conversion.h"

namespace collage::xnnpack {

Shape SubgraphShape(const Shape& ir_shape) { return PhysicalShape(ir_shape, Layout::kChannelsLast); }

bool NhwcKeepsElementOrder(const Shape& ir_shape) {
  return LayoutsShareBytes(ir_shape, Layout::kPlain, Layout::kChannelsLast);
}

Shape PrependOnes(const Shape& shape, size_t rank) {
  Shape result(rank > shape.size() ? rank - shape.size() : 0, 1);
  result.insert(result.end(), shape.begin(), shape.end());
  return result;
}

std::vector<float> ToSubgraphLayout(const Tensor& tensor) {
  std::vector<float> result(static_cast<size_t>(tensor.NumElements()));
  ConvertLayout(tensor.data<float>(), Layout::kPlain, result.data(), Layout::kChannelsLast, tensor.shape(),
                sizeof(float));
  return result;
}

std::vector<float> OihwToOhwi(const Tensor& weight) {
  // OIHW -> OHWI is NCHW -> NHWC with O as the batch and I as the channels.
  return ToSubgraphLayout(weight);
}

std::vector<float> TransposedConvolutionToOhwi(const Tensor& weight, int64_t groups) {
  const Shape& shape = weight.shape();
  const int64_t group_inputs = shape[0] / groups;
  const int64_t group_outputs = shape[1];
  const int64_t taps = shape[2] * shape[3];
  const float* in = weight.data<float>();
  std::vector<float> result(static_cast<size_t>(weight.NumElements()));
  for (int64_t c = 0; c < shape[0]; ++c) {
    const int64_t group = c / group_inputs;
    for (int64_t o = 0; o < group_outputs; ++o) {
      for (int64_t t = 0; t < taps; ++t) {
        const int64_t output_channel = group * group_outputs + o;
        result[static_cast<size_t>((output_channel * taps + t) * group_inputs + c % group_inputs)] =
            in[(c * group_outputs + o) * taps + t];
      }
    }
  }
  return result;
}

std::vector<float> OihwToDepthwise1hwo(const Tensor& weight) {
  const Shape& shape = weight.shape();
  const int64_t outputs = shape[0];
  const int64_t taps = shape[2] * shape[3];
  const float* in = weight.data<float>();
  std::vector<float> result(static_cast<size_t>(outputs * taps));
  for (int64_t o = 0; o < outputs; ++o) {
    for (int64_t t = 0; t < taps; ++t) result[static_cast<size_t>(t * outputs + o)] = in[o * taps + t];
  }
  return result;
}

}  // namespace collage::xnnpack
