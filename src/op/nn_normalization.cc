// Normalizations along one axis: nn.batch_norm (inference form, with moving statistics),
// nn.layer_norm (statistics over the single axis `axis`), nn.rms_norm (root mean square over
// `axis`, no centering), nn.softmax and nn.log_softmax
// (numerically stable: the maximum is subtracted before exponentiating), and nn.lrn (across
// neighbouring channels).
#include <algorithm>
#include <cmath>

#include "op/all_ops.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

// The floating-point data argument and its normalized `axis` attribute.
struct AxisOperand {
  const TensorTypeNode& data;
  int64_t axis;
};

AxisOperand GetAxisOperand(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectFloat(data, "data");
  return {data, NormalizeAxis(attrs.GetInt("axis"), static_cast<int64_t>(data.shape.size()), "attribute axis")};
}

AxisSplit SplitAtAxisAttr(const Tensor& data, const Attrs& attrs) {
  return SplitAtAxis(data.shape(), NormalizeAxis(attrs.GetInt("axis"), data.rank(), "attribute axis"));
}

// Checks that the arguments from `first_index` on, named `names`, are vectors along the axis.
Type PerAxisParametersRelation(const std::vector<Type>& arg_types, const Attrs& attrs, size_t first_index,
                               const std::vector<std::string>& names) {
  const auto [data, axis] = GetAxisOperand(arg_types, attrs);
  if (attrs.GetFloat("epsilon") < 0.0) throw TypeError("attribute epsilon must not be negative");
  for (size_t i = 0; i < names.size(); ++i) {
    ExpectVectorArg(arg_types, first_index + i, names[i], data.shape[axis], "data dimension " + std::to_string(axis),
                    data);
  }
  return TensorType(data.dtype, data.shape);
}

Type BatchNormRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  return PerAxisParametersRelation(arg_types, attrs, 1, {"gamma", "beta", "moving_mean", "moving_var"});
}

void BatchNormKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const AxisSplit split = SplitAtAxisAttr(args[0], attrs);
  const double epsilon = attrs.GetFloat("epsilon");
  const float* data = args[0].data<float>();
  const float* gamma = args[1].data<float>();
  const float* beta = args[2].data<float>();
  const float* mean = args[3].data<float>();
  const float* variance = args[4].data<float>();
  float* output = result.data<float>();
  for (int64_t outer = 0; outer < split.outer; ++outer) {
    for (int64_t channel = 0; channel < split.extent; ++channel) {
      const double scale = gamma[channel] / std::sqrt(static_cast<double>(variance[channel]) + epsilon);
      for (int64_t inner = 0; inner < split.inner; ++inner) {
        const int64_t index = split.FlatIndex(outer, channel, inner);
        output[index] = static_cast<float>((data[index] - static_cast<double>(mean[channel])) * scale + beta[channel]);
      }
    }
  }
}

Type LayerNormRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  return PerAxisParametersRelation(arg_types, attrs, 1, {"gamma", "beta"});
}

void LayerNormKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const AxisSplit split = SplitAtAxisAttr(args[0], attrs);
  const double epsilon = attrs.GetFloat("epsilon");
  const float* data = args[0].data<float>();
  const float* gamma = args[1].data<float>();
  const float* beta = args[2].data<float>();
  float* output = result.data<float>();
  for (int64_t outer = 0; outer < split.outer; ++outer) {
    for (int64_t inner = 0; inner < split.inner; ++inner) {
      double sum = 0.0;
      for (int64_t e = 0; e < split.extent; ++e) sum += data[split.FlatIndex(outer, e, inner)];
      const double mean = sum / static_cast<double>(split.extent);
      double squares = 0.0;
      for (int64_t e = 0; e < split.extent; ++e) {
        const double centered = data[split.FlatIndex(outer, e, inner)] - mean;
        squares += centered * centered;
      }
      const double inverse_deviation = 1.0 / std::sqrt(squares / static_cast<double>(split.extent) + epsilon);
      for (int64_t e = 0; e < split.extent; ++e) {
        const int64_t index = split.FlatIndex(outer, e, inner);
        output[index] = static_cast<float>((data[index] - mean) * inverse_deviation * gamma[e] + beta[e]);
      }
    }
  }
}

Type RmsNormRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  return PerAxisParametersRelation(arg_types, attrs, 1, {"gamma"});
}

void RmsNormKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const AxisSplit split = SplitAtAxisAttr(args[0], attrs);
  const double epsilon = attrs.GetFloat("epsilon");
  const float* data = args[0].data<float>();
  const float* gamma = args[1].data<float>();
  float* output = result.data<float>();
  for (int64_t outer = 0; outer < split.outer; ++outer) {
    for (int64_t inner = 0; inner < split.inner; ++inner) {
      double squares = 0.0;
      for (int64_t e = 0; e < split.extent; ++e) {
        const double value = data[split.FlatIndex(outer, e, inner)];
        squares += value * value;
      }
      const double inverse_root = 1.0 / std::sqrt(squares / static_cast<double>(split.extent) + epsilon);
      for (int64_t e = 0; e < split.extent; ++e) {
        const int64_t index = split.FlatIndex(outer, e, inner);
        output[index] = static_cast<float>(data[index] * inverse_root * gamma[e]);
      }
    }
  }
}

Type SoftmaxRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const auto [data, axis] = GetAxisOperand(arg_types, attrs);
  return TensorType(data.dtype, data.shape);
}

// softmax(x)_e = exp(x_e - max) / sum exp(x - max); log_softmax(x)_e = x_e - max - log(sum).
F32KernelBody SoftmaxKernel(bool logarithmic) {
  return [logarithmic](const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
    const AxisSplit split = SplitAtAxisAttr(args[0], attrs);
    const float* data = args[0].data<float>();
    float* output = result.data<float>();
    for (int64_t outer = 0; outer < split.outer; ++outer) {
      for (int64_t inner = 0; inner < split.inner; ++inner) {
        double maximum = -INFINITY;
        for (int64_t e = 0; e < split.extent; ++e) {
          maximum = std::max(maximum, static_cast<double>(data[split.FlatIndex(outer, e, inner)]));
        }
        double sum = 0.0;
        for (int64_t e = 0; e < split.extent; ++e) sum += std::exp(data[split.FlatIndex(outer, e, inner)] - maximum);
        for (int64_t e = 0; e < split.extent; ++e) {
          const int64_t index = split.FlatIndex(outer, e, inner);
          const double shifted = data[index] - maximum;
          output[index] = static_cast<float>(logarithmic ? shifted - std::log(sum) : std::exp(shifted) / sum);
        }
      }
    }
  };
}

Type LrnRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectFloat(data, "data");
  if (data.shape.size() < 2) throw TypeError("data must have rank >= 2 ([N, C, ...]), got " + ShapeToString(data.shape));
  GetIntAtLeast(attrs, "size", 1);
  return arg_types[0];
}

// x / (bias + alpha / size * sum of x^2 over the channels c - floor((size - 1) / 2) to
// c + ceil((size - 1) / 2) that exist) ^ beta.
void LrnKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const AxisSplit split = SplitAtAxis(args[0].shape(), 1);
  const int64_t size = attrs.GetInt("size");
  const double alpha = attrs.GetFloat("alpha");
  const double beta = attrs.GetFloat("beta");
  const double bias = attrs.GetFloat("bias");
  const float* data = args[0].data<float>();
  float* output = result.data<float>();
  for (int64_t n = 0; n < split.outer; ++n) {
    for (int64_t c = 0; c < split.extent; ++c) {
      const int64_t first = std::max<int64_t>(0, c - (size - 1) / 2);
      const int64_t last = std::min<int64_t>(split.extent - 1, c + size / 2);
      for (int64_t i = 0; i < split.inner; ++i) {
        double square_sum = 0.0;
        for (int64_t k = first; k <= last; ++k) {
          const double value = data[split.FlatIndex(n, k, i)];
          square_sum += value * value;
        }
        const int64_t index = split.FlatIndex(n, c, i);
        output[index] = static_cast<float>(data[index] / std::pow(bias + alpha / static_cast<double>(size) * square_sum,
                                                                  beta));
      }
    }
  }
}

}  // namespace

void RegisterNormalizationOps(OpRegistry& registry) {
  registry.Register("nn.lrn")
      .Describe("local response normalization across channels (axis 1), as ONNX LRN")
      .Args({"data"})
      .Attr("size", AttrKind::kInt)
      .Attr("alpha", AttrKind::kFloat, 1e-4)
      .Attr("beta", AttrKind::kFloat, 0.75)
      .Attr("bias", AttrKind::kFloat, 1.0)
      .Pattern(OpPatternKind::kOpaque)
      .Relation(LrnRelation)
      .Kernel(MakeF32Kernel("nn.lrn", LrnRelation, LrnKernel));

  registry.Register("nn.batch_norm")
      .Describe(
          "inference batch normalization: (data - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta "
          "along axis")
      .Args({"data", "gamma", "beta", "moving_mean", "moving_var"})
      .Attr("axis", AttrKind::kInt, int64_t{1})
      .Attr("epsilon", AttrKind::kFloat, 1e-5)
      .Pattern(OpPatternKind::kBroadcast)
      .Relation(BatchNormRelation)
      .Kernel(MakeF32Kernel("nn.batch_norm", BatchNormRelation, BatchNormKernel));

  registry.Register("nn.layer_norm")
      .Describe("layer normalization over the single axis `axis`, then scale by gamma and shift by beta")
      .Args({"data", "gamma", "beta"})
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .Attr("epsilon", AttrKind::kFloat, 1e-5)
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(LayerNormRelation)
      .Kernel(MakeF32Kernel("nn.layer_norm", LayerNormRelation, LayerNormKernel));

  registry.Register("nn.rms_norm")
      .Describe("RMS normalization over the single axis `axis`: data / sqrt(mean(data^2) + epsilon) * gamma")
      .Args({"data", "gamma"})
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .Attr("epsilon", AttrKind::kFloat, 1e-6)
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(RmsNormRelation)
      .Kernel(MakeF32Kernel("nn.rms_norm", RmsNormRelation, RmsNormKernel));

  registry.Register("nn.softmax")
      .Describe("softmax along axis")
      .Args({"data"})
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(SoftmaxRelation)
      .Kernel(MakeF32Kernel("nn.softmax", SoftmaxRelation, SoftmaxKernel(false)));

  registry.Register("nn.log_softmax")
      .Describe("logarithm of the softmax along axis")
      .Args({"data"})
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(SoftmaxRelation)
      .Kernel(MakeF32Kernel("nn.log_softmax", SoftmaxRelation, SoftmaxKernel(true)));
}

}  // namespace collage
