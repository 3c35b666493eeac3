// Elementwise ops: broadcasting binary ops (add, subtract, multiply, divide, maximum,
// minimum), nn.bias_add as a broadcast add, and the unary activations XNNPACK has (relu and
// clip as clamp, leaky_relu, sigmoid, abs, negative, floor, ceil, round, sqrt).
#include <cmath>

#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "backend/xnnpack/support_rules.h"
#include "backend/xnnpack/xnnpack_status.h"

namespace collage::xnnpack {
namespace {

// A computed operand broadcast against a result of rank `result_rank` must reach the result's
// layout by a reshape: either it already has the result's rank, or NHWC keeps its order.
std::string BroadcastOperandReason(const Expr& operand, const Shape& ir_view, size_t result_rank, size_t index) {
  if (IsConstant(operand)) return "";
  const Shape aligned = PrependOnes(ir_view, result_rank);
  if (TensorTypeOf(operand).shape == aligned || NhwcKeepsElementOrder(aligned)) return "";
  return "computed operand " + std::to_string(index) + " of shape " + ShapeToString(ir_view) +
         " broadcasts against a 4-D result along several NCHW axes, which needs a transpose into NHWC";
}

// nn.bias_add's bias seen as the op broadcasts it: [C] followed by 1s up to the last axis.
Shape BiasView(const CallNode& call) {
  const size_t rank = TensorTypeOf(call.args[0]).shape.size();
  const int64_t axis = NormalizeAxis(call.attrs.GetInt("axis"), rank);
  Shape view(rank - static_cast<size_t>(axis), 1);
  view[0] = TensorTypeOf(call.args[1]).shape.at(0);
  return view;
}

}  // namespace

std::string BinaryRule(const CallNode& call) {
  const size_t result_rank = AsTensorType(call.checked_type())->shape.size();
  for (size_t i = 0; i < 2; ++i) {
    std::string reason = BroadcastOperandReason(call.args[i], TensorTypeOf(call.args[i]).shape, result_rank, i);
    if (!reason.empty()) return reason;
  }
  return "";
}

void DefineBinary(SubgraphBuilder& builder, const CallNode& call) {
  const size_t result_rank = AsTensorType(call.checked_type())->shape.size();
  const uint32_t lhs = builder.BroadcastOperand(call.args[0], TensorTypeOf(call.args[0]).shape, result_rank);
  const uint32_t rhs = builder.BroadcastOperand(call.args[1], TensorTypeOf(call.args[1]).shape, result_rank);
  const uint32_t out = builder.DefineResult(call);
  const std::string& name = call.op()->name;
  xnn_subgraph_t subgraph = builder.subgraph();
  xnn_status status = xnn_status_invalid_parameter;
  if (name == "add") status = xnn_define_add2(subgraph, kNoOutputMin, kNoOutputMax, lhs, rhs, out, 0);
  if (name == "subtract") status = xnn_define_subtract(subgraph, kNoOutputMin, kNoOutputMax, lhs, rhs, out, 0);
  if (name == "multiply") status = xnn_define_multiply2(subgraph, kNoOutputMin, kNoOutputMax, lhs, rhs, out, 0);
  if (name == "divide") status = xnn_define_divide(subgraph, kNoOutputMin, kNoOutputMax, lhs, rhs, out, 0);
  if (name == "maximum") status = xnn_define_maximum2(subgraph, lhs, rhs, out, 0);
  if (name == "minimum") status = xnn_define_minimum2(subgraph, lhs, rhs, out, 0);
  CheckStatus(status, "defining " + name);
}

std::string BiasAddRule(const CallNode& call) {
  const size_t result_rank = AsTensorType(call.checked_type())->shape.size();
  if (TensorTypeOf(call.args[1]).shape.size() != 1) return "the bias is not 1-D";
  return BroadcastOperandReason(call.args[1], BiasView(call), result_rank, 1);
}

void DefineBiasAdd(SubgraphBuilder& builder, const CallNode& call) {
  const size_t result_rank = AsTensorType(call.checked_type())->shape.size();
  const uint32_t data = builder.ValueOf(call.args[0]);
  const uint32_t bias = builder.BroadcastOperand(call.args[1], BiasView(call), result_rank);
  const uint32_t out = builder.DefineResult(call);
  CheckStatus(xnn_define_add2(builder.subgraph(), kNoOutputMin, kNoOutputMax, data, bias, out, 0),
              "defining nn.bias_add");
}

std::string UnaryRule(const CallNode& call) {
  const std::string& name = call.op()->name;
  if (name == "clip") {
    const double low = call.attrs.GetFloat("a_min");
    const double high = call.attrs.GetFloat("a_max");
    if (std::isnan(low) || std::isnan(high) || !(low < high)) return "XNNPACK's clamp needs a_min < a_max";
  }
  if (name == "nn.leaky_relu" && !std::isfinite(call.attrs.GetFloat("alpha"))) return "alpha is not finite";
  return "";
}

void DefineUnary(SubgraphBuilder& builder, const CallNode& call) {
  const uint32_t in = builder.ValueOf(call.args[0]);
  const uint32_t out = builder.DefineResult(call);
  const std::string& name = call.op()->name;
  xnn_subgraph_t subgraph = builder.subgraph();
  xnn_status status = xnn_status_invalid_parameter;
  if (name == "nn.relu") status = xnn_define_clamp(subgraph, 0.0f, kNoOutputMax, in, out, 0);
  if (name == "clip") {
    status = xnn_define_clamp(subgraph, static_cast<float>(call.attrs.GetFloat("a_min")),
                              static_cast<float>(call.attrs.GetFloat("a_max")), in, out, 0);
  }
  if (name == "nn.leaky_relu") {
    status = xnn_define_leaky_relu(subgraph, static_cast<float>(call.attrs.GetFloat("alpha")), in, out, 0);
  }
  if (name == "sigmoid") status = xnn_define_sigmoid(subgraph, in, out, 0);
  if (name == "abs") status = xnn_define_abs(subgraph, in, out, 0);
  if (name == "negative") status = xnn_define_negate(subgraph, in, out, 0);
  if (name == "floor") status = xnn_define_floor(subgraph, in, out, 0);
  if (name == "ceil") status = xnn_define_ceiling(subgraph, in, out, 0);
  if (name == "round") status = xnn_define_bankers_rounding(subgraph, in, out, 0);
  if (name == "sqrt") status = xnn_define_square_root(subgraph, in, out, 0);
  CheckStatus(status, "defining " + name);
}

}  // namespace collage::xnnpack
