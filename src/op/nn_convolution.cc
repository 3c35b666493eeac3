// nn.conv2d and nn.conv2d_transpose: grouped, strided, dilated 2-D convolutions over NCHW
// data. conv2d takes OIHW weights of shape (out channels, in channels / groups, KH, KW);
// conv2d_transpose takes weights of shape (in channels, out channels / groups, KH, KW) as
// torch's and ONNX's ConvTranspose do, and is the gradient of conv2d with respect to its data.
#include "op/all_ops.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

// The checked data and weight types of a convolution and its groups attribute.
struct ConvolutionOperands {
  const TensorTypeNode& data;
  const TensorTypeNode& weight;
  int64_t groups;
};

ConvolutionOperands GetConvolutionOperands(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  const TensorTypeNode& weight = ExpectTensorArg(arg_types, 1, "weight");
  ExpectRank(data, 4, "data");
  ExpectRank(weight, 4, "weight");
  ExpectSameDType(data, "data", weight, "weight");
  return {data, weight, GetIntAtLeast(attrs, "groups", 1)};
}

void ExpectDivisibleByGroups(int64_t channels, const std::string& what, int64_t groups) {
  if (channels % groups != 0) {
    throw TypeError(what + " " + std::to_string(channels) + " must be divisible by groups " + std::to_string(groups));
  }
}

Type Conv2DRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const auto [data, weight, groups] = GetConvolutionOperands(arg_types, attrs);
  const Window2D window = GetWindow2D(attrs);
  const int64_t weight_in_channels = weight.shape[1];
  if (data.shape[1] != weight_in_channels * groups) {
    throw TypeError("data channels (dimension 1) " + std::to_string(data.shape[1]) +
                    " must equal weight input channels (dimension 1) " + std::to_string(weight_in_channels) +
                    " times groups " + std::to_string(groups));
  }
  ExpectDivisibleByGroups(weight.shape[0], "weight output channels (dimension 0)", groups);
  Shape out_shape = {data.shape[0], weight.shape[0], 0, 0};
  for (int axis = 0; axis < 2; ++axis) {
    out_shape[2 + axis] =
        WindowOutputExtent(data.shape[2 + axis], weight.shape[2 + axis], axis, window, false, "weight");
  }
  return TensorType(data.dtype, out_shape);
}

// out[n, o, y, x] = sum over the input channels c of o's group and the kernel taps (ky, kx)
// of data[n, c, y * stride - pad + ky * dilation, ...] * weight[o, c - group start, ky, kx].
void Conv2DKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const Shape& in = args[0].shape();
  const Shape& kernel = args[1].shape();
  const Shape& out = result.shape();
  const float* data = args[0].data<float>();
  const float* weight = args[1].data<float>();
  float* output = result.data<float>();
  const Window2D window = GetWindow2D(attrs);
  const int64_t group_in_channels = kernel[1];
  const int64_t group_out_channels = out[1] / attrs.GetInt("groups");
  for (int64_t n = 0; n < out[0]; ++n) {
    for (int64_t o = 0; o < out[1]; ++o) {
      const int64_t first_channel = (o / group_out_channels) * group_in_channels;
      for (int64_t y = 0; y < out[2]; ++y) {
        for (int64_t x = 0; x < out[3]; ++x) {
          double sum = 0.0;
          for (int64_t c = 0; c < group_in_channels; ++c) {
            for (int64_t ky = 0; ky < kernel[2]; ++ky) {
              const int64_t in_y = window.TapPosition(0, y, ky);
              if (in_y < 0 || in_y >= in[2]) continue;
              for (int64_t kx = 0; kx < kernel[3]; ++kx) {
                const int64_t in_x = window.TapPosition(1, x, kx);
                if (in_x < 0 || in_x >= in[3]) continue;
                sum += static_cast<double>(data[((n * in[1] + first_channel + c) * in[2] + in_y) * in[3] + in_x]) *
                       weight[((o * kernel[1] + c) * kernel[2] + ky) * kernel[3] + kx];
              }
            }
          }
          output[((n * out[1] + o) * out[2] + y) * out[3] + x] = static_cast<float>(sum);
        }
      }
    }
  }
}

Type Conv2DTransposeRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const auto [data, weight, groups] = GetConvolutionOperands(arg_types, attrs);
  const Window2D window = GetWindow2D(attrs);
  const std::vector<int64_t> output_padding = GetIntList(attrs, "output_padding", 2, 0);
  if (data.shape[1] != weight.shape[0]) {
    throw TypeError("data channels (dimension 1) " + std::to_string(data.shape[1]) +
                    " must equal weight input channels (dimension 0) " + std::to_string(weight.shape[0]));
  }
  ExpectDivisibleByGroups(data.shape[1], "data channels (dimension 1)", groups);
  Shape out_shape = {data.shape[0], weight.shape[1] * groups, 0, 0};
  for (int axis = 0; axis < 2; ++axis) {
    const std::string axis_name = kSpatialAxisNames[axis];
    const int64_t kernel_extent = weight.shape[2 + axis];
    if (kernel_extent < 1)
      throw TypeError("weight " + axis_name + " must be positive, got " + std::to_string(kernel_extent));
    if (output_padding[axis] >= window.strides[axis] && output_padding[axis] >= window.dilation[axis]) {
      throw TypeError("output_padding[" + std::to_string(axis) + "] " + std::to_string(output_padding[axis]) +
                      " must be smaller than the " + axis_name + " stride " + std::to_string(window.strides[axis]) +
                      " or dilation " + std::to_string(window.dilation[axis]));
    }
    const int64_t extent = (data.shape[2 + axis] - 1) * window.strides[axis] - window.pad_begin[axis] -
                           window.pad_end[axis] + window.dilation[axis] * (kernel_extent - 1) + output_padding[axis] +
                           1;
    if (data.shape[2 + axis] < 1 || extent < 1) {
      throw TypeError("output " + axis_name + " would be " + std::to_string(extent) + ": data " + axis_name + " " +
                      std::to_string(data.shape[2 + axis]) + " with padding " + std::to_string(window.pad_begin[axis]) +
                      " + " + std::to_string(window.pad_end[axis]) + " leaves no output");
    }
    out_shape[2 + axis] = extent;
  }
  return TensorType(data.dtype, out_shape);
}

// Scatters every data element through the kernel: data[n, c, y, x] * weight[c, o', ky, kx]
// adds to out[n, group start + o', y * stride - pad + ky * dilation, ...] when in bounds.
void Conv2DTransposeKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const Shape& in = args[0].shape();
  const Shape& kernel = args[1].shape();
  const Shape& out = result.shape();
  const float* data = args[0].data<float>();
  const float* weight = args[1].data<float>();
  const Window2D window = GetWindow2D(attrs);
  const int64_t group_in_channels = in[1] / attrs.GetInt("groups");
  const int64_t group_out_channels = kernel[1];
  std::vector<double> sums(static_cast<size_t>(result.NumElements()), 0.0);
  for (int64_t n = 0; n < in[0]; ++n) {
    for (int64_t c = 0; c < in[1]; ++c) {
      const int64_t first_out_channel = (c / group_in_channels) * group_out_channels;
      for (int64_t y = 0; y < in[2]; ++y) {
        for (int64_t x = 0; x < in[3]; ++x) {
          const double value = data[((n * in[1] + c) * in[2] + y) * in[3] + x];
          for (int64_t o = 0; o < group_out_channels; ++o) {
            for (int64_t ky = 0; ky < kernel[2]; ++ky) {
              const int64_t out_y = window.TapPosition(0, y, ky);
              if (out_y < 0 || out_y >= out[2]) continue;
              for (int64_t kx = 0; kx < kernel[3]; ++kx) {
                const int64_t out_x = window.TapPosition(1, x, kx);
                if (out_x < 0 || out_x >= out[3]) continue;
                sums[static_cast<size_t>(((n * out[1] + first_out_channel + o) * out[2] + out_y) * out[3] + out_x)] +=
                    value * weight[((c * kernel[1] + o) * kernel[2] + ky) * kernel[3] + kx];
              }
            }
          }
        }
      }
    }
  }
  float* output = result.data<float>();
  for (size_t i = 0; i < sums.size(); ++i) output[i] = static_cast<float>(sums[i]);
}

}  // namespace

void RegisterConvolutionOps(OpRegistry& registry) {
  registry.Register("nn.conv2d")
      .Describe("2-D convolution of NCHW data with OIHW weights (groups, strides, padding, dilation)")
      .Args({"data", "weight"})
      .Attr("strides", AttrKind::kInts, std::vector<int64_t>{1, 1})
      .Attr("padding", AttrKind::kInts, std::vector<int64_t>{0, 0, 0, 0})
      .Attr("dilation", AttrKind::kInts, std::vector<int64_t>{1, 1})
      .Attr("groups", AttrKind::kInt, int64_t{1})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(Conv2DRelation)
      .Kernel(MakeF32Kernel("nn.conv2d", Conv2DRelation, Conv2DKernel));

  registry.Register("nn.conv2d_transpose")
      .Describe("transposed 2-D convolution of NCHW data with (in, out / groups, KH, KW) weights")
      .Args({"data", "weight"})
      .Attr("strides", AttrKind::kInts, std::vector<int64_t>{1, 1})
      .Attr("padding", AttrKind::kInts, std::vector<int64_t>{0, 0, 0, 0})
      .Attr("output_padding", AttrKind::kInts, std::vector<int64_t>{0, 0})
      .Attr("dilation", AttrKind::kInts, std::vector<int64_t>{1, 1})
      .Attr("groups", AttrKind::kInt, int64_t{1})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(Conv2DTransposeRelation)
      .Kernel(MakeF32Kernel("nn.conv2d_transpose", Conv2DTransposeRelation, Conv2DTransposeKernel));
}

}  // namespace collage
