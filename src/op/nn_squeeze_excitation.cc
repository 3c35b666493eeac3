// nn.squeeze_excitation(data, reduce_weight, reduce_bias, expand_weight, expand_bias): the
// squeeze-and-excitation block of mobile CNNs as one op. For data (N, C, H, W) (`layout`
// "NCHW", the default) or (N, H, W, C) ("NHWC"), per sample:
// pooled = the mean of each channel over H x W; hidden = activation(reduce_weight pooled +
// reduce_bias) with reduce_weight (R, C, 1, 1); scale = gate(expand_weight hidden + expand_bias)
// with expand_weight (C, R, 1, 1); the result is data times its channel's scale. `activation` is
// "relu" or "silu"; `gate` is "sigmoid" or "hard_sigmoid" (clip(x * gate_slope + gate_offset, 0, 1)).
#include <algorithm>
#include <cmath>

#include "ir/op_registry.h"
#include "op/all_ops.h"
#include "op/nn_common.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

void ExpectOneOf(const Attrs& attrs, const std::string& name, const std::string& first, const std::string& second) {
  const std::string& value = attrs.GetString(name);
  if (value != first && value != second) {
    throw TypeError("attribute " + name + " must be \"" + first + "\" or \"" + second + "\", got \"" + value + "\"");
  }
}

// A (rows, columns, 1, 1) weight argument of the data's dtype.
void ExpectPointwiseWeight(const std::vector<Type>& arg_types, size_t index, const std::string& name, int64_t rows,
                           int64_t columns, const TensorTypeNode& data) {
  const TensorTypeNode& weight = ExpectTensorArg(arg_types, index, name);
  ExpectSameDType(data, "data", weight, name);
  if (weight.shape != Shape{rows, columns, 1, 1}) {
    throw TypeError(name + " must have shape " + ShapeToString({rows, columns, 1, 1}) + ", got " +
                    ShapeToString(weight.shape));
  }
}

int64_t ChannelAxis(const Attrs& attrs) { return attrs.GetString("layout") == "NHWC" ? 3 : 1; }

Type SqueezeExcitationRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectFloat(data, "data");
  ExpectRank(data, 4, "data");
  ExpectOneOf(attrs, "activation", "relu", "silu");
  ExpectOneOf(attrs, "gate", "sigmoid", "hard_sigmoid");
  ExpectOneOf(attrs, "layout", "NCHW", "NHWC");
  const int64_t channels = data.shape[ChannelAxis(attrs)];
  const TensorTypeNode& reduce = ExpectTensorArg(arg_types, 1, "reduce_weight");
  ExpectRank(reduce, 4, "reduce_weight");
  const int64_t reduced = reduce.shape[0];
  ExpectPointwiseWeight(arg_types, 1, "reduce_weight", reduced, channels, data);
  ExpectVectorArg(arg_types, 2, "reduce_bias", reduced, "reduce_weight dimension 0", data);
  ExpectPointwiseWeight(arg_types, 3, "expand_weight", channels, reduced, data);
  ExpectVectorArg(arg_types, 4, "expand_bias", channels, "data dimension " + std::to_string(ChannelAxis(attrs)), data);
  return arg_types[0];
}

void SqueezeExcitationKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const Shape& shape = args[0].shape();
  const bool channels_last = ChannelAxis(attrs) == 3;
  const int64_t samples = shape[0];
  const int64_t channels = shape[ChannelAxis(attrs)];
  const int64_t plane = channels_last ? shape[1] * shape[2] : shape[2] * shape[3];
  // Element p of channel c of sample n.
  const auto index_of = [&](int64_t n, int64_t c, int64_t p) {
    return channels_last ? (n * plane + p) * channels + c : (n * channels + c) * plane + p;
  };
  const int64_t reduced = args[1].shape()[0];
  const float* data = args[0].data<float>();
  const float* reduce_weight = args[1].data<float>();
  const float* reduce_bias = args[2].data<float>();
  const float* expand_weight = args[3].data<float>();
  const float* expand_bias = args[4].data<float>();
  const bool silu = attrs.GetString("activation") == "silu";
  const bool hard = attrs.GetString("gate") == "hard_sigmoid";
  float* output = result.data<float>();
  std::vector<double> pooled(static_cast<size_t>(channels));
  std::vector<double> hidden(static_cast<size_t>(reduced));
  for (int64_t n = 0; n < samples; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      double sum = 0.0;
      for (int64_t p = 0; p < plane; ++p) sum += data[index_of(n, c, p)];
      pooled[static_cast<size_t>(c)] = sum / static_cast<double>(plane);
    }
    for (int64_t r = 0; r < reduced; ++r) {
      double sum = reduce_bias[r];
      for (int64_t c = 0; c < channels; ++c) sum += reduce_weight[r * channels + c] * pooled[static_cast<size_t>(c)];
      hidden[static_cast<size_t>(r)] = silu ? sum / (1.0 + std::exp(-sum)) : std::max(sum, 0.0);
    }
    for (int64_t c = 0; c < channels; ++c) {
      double sum = expand_bias[c];
      for (int64_t r = 0; r < reduced; ++r) sum += expand_weight[c * reduced + r] * hidden[static_cast<size_t>(r)];
      const double scale =
          hard ? std::clamp(sum * attrs.GetFloat("gate_slope") + attrs.GetFloat("gate_offset"), 0.0, 1.0)
               : 1.0 / (1.0 + std::exp(-sum));
      for (int64_t p = 0; p < plane; ++p) {
        const int64_t index = index_of(n, c, p);
        output[index] = static_cast<float>(data[index] * scale);
      }
    }
  }
}

}  // namespace

void RegisterSqueezeExcitationOps(OpRegistry& registry) {
  registry.Register("nn.squeeze_excitation")
      .Describe("squeeze-and-excitation: data times gate(expand(activation(reduce(channel means))))")
      .Args({"data", "reduce_weight", "reduce_bias", "expand_weight", "expand_bias"})
      .Attr("activation", AttrKind::kString, std::string("relu"))
      .Attr("gate", AttrKind::kString, std::string("sigmoid"))
      .Attr("gate_slope", AttrKind::kFloat, 1.0 / 6.0)
      .Attr("gate_offset", AttrKind::kFloat, 0.5)
      .Attr("layout", AttrKind::kString, std::string("NCHW"))
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(SqueezeExcitationRelation)
      .Kernel(MakeF32Kernel("nn.squeeze_excitation", SqueezeExcitationRelation, SqueezeExcitationKernel));
}

}  // namespace collage
