// Pooling: nn.max_pool2d (dilation, ceil_mode as extra end padding), nn.avg_pool2d (XNNPACK
// divides by the taps inside the input, i.e. count_include_pad=0), nn.global_avg_pool2d,
// nn.global_max_pool2d (a max pooling over the whole plane) and nn.adaptive_avg_pool2d when
// the output size divides the input (global, or a plain average pooling with equal windows).

#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/pool_geometry.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "backend/xnnpack/support_rules.h"
#include "backend/xnnpack/xnnpack_status.h"

namespace collage::xnnpack {
namespace {

bool HasPadding(const PoolGeometry& g) { return g.pad_top + g.pad_left + g.pad_bottom + g.pad_right > 0; }

}  // namespace

std::string WindowPoolRule(const CallNode& call) {
  const PoolGeometry g = GetPoolGeometry(call);
  const bool average = call.op()->name == "nn.avg_pool2d";
  if (g.pool_height * g.pool_width == 1) return "XNNPACK rejects 1x1 pooling";
  if (g.pad_top >= g.pool_height || g.pad_bottom >= g.pool_height || g.pad_left >= g.pool_width ||
      g.pad_right >= g.pool_width) {
    return "padding (with ceil_mode's extra padding) must be smaller than the pool size";
  }
  if (average) {
    if (g.dilation_height * g.dilation_width != 1) return "XNNPACK's average pooling has no dilation";
    if (g.ceil_padding > 0) return "ceil_mode adds a partial window XNNPACK's average pooling cannot express";
    if (call.attrs.GetInt("count_include_pad") != 0 && HasPadding(g)) {
      return "count_include_pad with padding: XNNPACK divides by the taps inside the input";
    }
  } else if (g.dilation_height * g.dilation_width != 1 && HasPadding(g)) {
    return "dilated max pooling with padding: XNNPACK clamps padded taps onto pixels outside the window";
  }
  return "";
}

void DefineMaxPool2D(SubgraphBuilder& builder, const CallNode& call) {
  const PoolGeometry g = GetPoolGeometry(call);
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_max_pooling_2d(builder.subgraph(), g.pad_top, g.pad_right, g.pad_bottom, g.pad_left,
                                        g.pool_height, g.pool_width, g.stride_height, g.stride_width, g.dilation_height,
                                        g.dilation_width, kNoOutputMin, kNoOutputMax, input, output, 0),
              "defining nn.max_pool2d");
}

void DefineAvgPool2D(SubgraphBuilder& builder, const CallNode& call) {
  const PoolGeometry g = GetPoolGeometry(call);
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_average_pooling_2d(builder.subgraph(), g.pad_top, g.pad_right, g.pad_bottom, g.pad_left,
                                            g.pool_height, g.pool_width, g.stride_height, g.stride_width, kNoOutputMin,
                                            kNoOutputMax, input, output, 0),
              "defining nn.avg_pool2d");
}

std::string GlobalPoolRule(const CallNode& call) {
  const Shape& in = TensorTypeOf(call.args[0]).shape;
  if (call.op()->name == "nn.global_max_pool2d" && in[2] * in[3] == 1) return "XNNPACK rejects 1x1 pooling";
  return "";
}

void DefineGlobalAvgPool2D(SubgraphBuilder& builder, const CallNode& call) {
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_global_average_pooling_2d(builder.subgraph(), kNoOutputMin, kNoOutputMax, input, output, 0),
              "defining nn.global_avg_pool2d");
}

void DefineGlobalMaxPool2D(SubgraphBuilder& builder, const CallNode& call) {
  const Shape& in = TensorTypeOf(call.args[0]).shape;
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(
      xnn_define_max_pooling_2d(builder.subgraph(), 0, 0, 0, 0, static_cast<uint32_t>(in[2]),
                                static_cast<uint32_t>(in[3]), 1, 1, 1, 1, kNoOutputMin, kNoOutputMax, input, output, 0),
      "defining nn.global_max_pool2d");
}

std::string AdaptiveAvgPoolRule(const CallNode& call) {
  const Shape& in = TensorTypeOf(call.args[0]).shape;
  const Shape& out = AsTensorType(call.checked_type())->shape;
  if (in[2] % out[2] != 0 || in[3] % out[3] != 0) return "the output size does not divide the input into equal windows";
  if (out[2] * out[3] != 1 && in[2] == out[2] && in[3] == out[3]) return "XNNPACK rejects 1x1 pooling";
  return "";
}

void DefineAdaptiveAvgPool2D(SubgraphBuilder& builder, const CallNode& call) {
  const Shape& in = TensorTypeOf(call.args[0]).shape;
  const Shape& out = AsTensorType(call.checked_type())->shape;
  if (out[2] * out[3] == 1) return DefineGlobalAvgPool2D(builder, call);
  const uint32_t window_height = static_cast<uint32_t>(in[2] / out[2]);
  const uint32_t window_width = static_cast<uint32_t>(in[3] / out[3]);
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_average_pooling_2d(builder.subgraph(), 0, 0, 0, 0, window_height, window_width, window_height,
                                            window_width, kNoOutputMin, kNoOutputMax, input, output, 0),
              "defining nn.adaptive_avg_pool2d");
}

}  // namespace collage::xnnpack
