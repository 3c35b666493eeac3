// nn.conv2d (XNNPACK convolution_2d with OHWI filters, or depthwise_convolution_2d with 1HWO
// filters when every group has one input channel), nn.conv2d_transpose (deconvolution_2d with
// OHWI filters per group) and nn.dense (fully_connected with the IR's [units, K] weight).
// Weights must be constants: XNNPACK packs them when the runtime is created.
// A bias folded by bias_fusion.h becomes the node's bias.

#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "backend/xnnpack/support_rules.h"
#include "backend/xnnpack/xnnpack_status.h"

namespace collage::xnnpack {
namespace {

const Tensor& ConstantWeight(const CallNode& call) { return As<ConstantNode>(call.args[1])->data; }

uint32_t DefineBias(SubgraphBuilder& builder, const CallNode& call) {
  const Tensor* bias = builder.FusedBias(call);
  if (!bias) return XNN_INVALID_VALUE_ID;
  return builder.DefineStatic(ToSubgraphLayout(*bias), bias->shape());
}

std::string WeightReason(const CallNode& call) {
  return As<ConstantNode>(call.args[1]) ? "" : "the weight is not a constant (XNNPACK packs weights at compile time)";
}

uint32_t U32(int64_t value) { return static_cast<uint32_t>(value); }

}  // namespace

std::string Conv2DRule(const CallNode& call) { return WeightReason(call); }

void DefineConv2D(SubgraphBuilder& builder, const CallNode& call) {
  const Shape& data_shape = TensorTypeOf(call.args[0]).shape;
  const Tensor& weight = ConstantWeight(call);
  const Shape& kernel = weight.shape();  // O, I / groups, KH, KW
  const int64_t groups = call.attrs.GetInt("groups");
  const std::vector<int64_t>& strides = call.attrs.GetInts("strides");
  const std::vector<int64_t>& dilation = call.attrs.GetInts("dilation");
  const std::vector<int64_t>& pad = call.attrs.GetInts("padding");  // top, left, bottom, right
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t bias = DefineBias(builder, call);
  const bool depthwise = groups > 1 && groups == data_shape[1] && kernel[1] == 1;
  const uint32_t filter = depthwise
                              ? builder.DefineStatic(OihwToDepthwise1hwo(weight), {1, kernel[2], kernel[3], kernel[0]})
                              : builder.DefineStatic(OihwToOhwi(weight), {kernel[0], kernel[2], kernel[3], kernel[1]});
  const uint32_t output = builder.DefineResult(call);
  if (depthwise) {
    CheckStatus(xnn_define_depthwise_convolution_2d(builder.subgraph(), U32(pad[0]), U32(pad[3]), U32(pad[2]),
                                                    U32(pad[1]), U32(kernel[2]), U32(kernel[3]), U32(strides[0]),
                                                    U32(strides[1]), U32(dilation[0]), U32(dilation[1]),
                                                    U32(kernel[0] / groups), static_cast<size_t>(groups), kNoOutputMin,
                                                    kNoOutputMax, input, filter, bias, output, 0),
                "defining a depthwise nn.conv2d");
  } else {
    CheckStatus(xnn_define_convolution_2d(builder.subgraph(), U32(pad[0]), U32(pad[3]), U32(pad[2]), U32(pad[1]),
                                          U32(kernel[2]), U32(kernel[3]), U32(strides[0]), U32(strides[1]),
                                          U32(dilation[0]), U32(dilation[1]), U32(groups),
                                          static_cast<size_t>(kernel[1]), static_cast<size_t>(kernel[0] / groups),
                                          kNoOutputMin, kNoOutputMax, input, filter, bias, output, 0),
                "defining nn.conv2d");
  }
}

std::string Conv2DTransposeRule(const CallNode& call) {
  if (std::string reason = WeightReason(call); !reason.empty()) return reason;
  const std::vector<int64_t>& strides = call.attrs.GetInts("strides");
  const std::vector<int64_t>& output_padding = call.attrs.GetInts("output_padding");
  for (size_t axis = 0; axis < 2; ++axis) {
    if (output_padding[axis] >= strides[axis]) {
      return "output_padding " + std::to_string(output_padding[axis]) + " is not below the stride " +
             std::to_string(strides[axis]) + " (XNNPACK's adjustment must be)";
    }
  }
  return "";
}

void DefineConv2DTranspose(SubgraphBuilder& builder, const CallNode& call) {
  const Tensor& weight = ConstantWeight(call);
  const Shape& kernel = weight.shape();  // I, O / groups, KH, KW
  const int64_t groups = call.attrs.GetInt("groups");
  const int64_t group_inputs = kernel[0] / groups;
  const std::vector<int64_t>& strides = call.attrs.GetInts("strides");
  const std::vector<int64_t>& dilation = call.attrs.GetInts("dilation");
  const std::vector<int64_t>& pad = call.attrs.GetInts("padding");  // top, left, bottom, right
  const std::vector<int64_t>& output_padding = call.attrs.GetInts("output_padding");
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t bias = DefineBias(builder, call);
  const uint32_t filter = builder.DefineStatic(TransposedConvolutionToOhwi(weight, groups),
                                               {groups * kernel[1], kernel[2], kernel[3], group_inputs});
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_deconvolution_2d(builder.subgraph(), U32(pad[0]), U32(pad[3]), U32(pad[2]), U32(pad[1]),
                                          U32(output_padding[0]), U32(output_padding[1]), U32(kernel[2]),
                                          U32(kernel[3]), U32(strides[0]), U32(strides[1]), U32(dilation[0]),
                                          U32(dilation[1]), U32(groups), static_cast<size_t>(group_inputs),
                                          static_cast<size_t>(kernel[1]), kNoOutputMin, kNoOutputMax, input, filter,
                                          bias, output, 0),
              "defining nn.conv2d_transpose");
}

std::string DenseRule(const CallNode& call) {
  if (std::string reason = WeightReason(call); !reason.empty()) return reason;
  if (TensorTypeOf(call.args[0]).shape.size() > 3) return "4-D data would be NHWC inside XNNPACK";
  return "";
}

void DefineDense(SubgraphBuilder& builder, const CallNode& call) {
  const Tensor& weight = ConstantWeight(call);
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t filter = builder.DefineStatic(ToSubgraphLayout(weight), weight.shape());
  const uint32_t bias = DefineBias(builder, call);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(
      xnn_define_fully_connected(builder.subgraph(), kNoOutputMin, kNoOutputMax, input, filter, bias, output, 0),
      "defining nn.dense");
}

}  // namespace collage::xnnpack
