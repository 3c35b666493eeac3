// ONNX activations and elementwise math written with the IR's elementwise ops: Elu, Selu,
// Celu, ThresholdedRelu, Shrink, PRelu, Softplus, Softsign, IsNaN, IsInf and Mod.
#include <limits>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"

namespace collage {
namespace {

// The floating input X; other dtypes are an error naming it.
const Expr& FloatInput(OnnxNode& node) {
  const Expr& data = node.Input(0, "X");
  const DType dtype = TensorTypeOf(data).dtype;
  if (!IsFloatingPoint(dtype)) throw Error("input X must be floating point, got " + std::string(DTypeName(dtype)));
  return data;
}

Expr Scalar(OnnxNode& node, double value, const Expr& like) {
  return ScalarConstant(node.builder(), value, TensorTypeOf(like).dtype);
}

// x for x > 0, alpha * (exp(x) - 1) otherwise.
Expr ExponentialLinear(OnnxNode& node, const Expr& data, double alpha) {
  FoldingBuilder& builder = node.builder();
  Expr expm1 = builder.Call("subtract", {builder.Call("exp", {data}), Scalar(node, 1.0, data)});
  Expr negative_part = builder.Call("multiply", {expm1, Scalar(node, alpha, data)});
  Expr positive = builder.Call("greater", {data, Scalar(node, 0.0, data)});
  return builder.Call("where", {positive, data, negative_part});
}

std::vector<Expr> ConvertElu(OnnxNode& node) {
  return {ExponentialLinear(node, FloatInput(node), node.Float("alpha", 1.0))};
}

std::vector<Expr> ConvertSelu(OnnxNode& node) {
  const Expr& data = FloatInput(node);
  const Expr elu = ExponentialLinear(node, data, node.Float("alpha", 1.67326319217681884765625));
  return {node.builder().Call("multiply", {elu, Scalar(node, node.Float("gamma", 1.05070102214813232421875), data)})};
}

// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), which is Elu(x / alpha) * alpha.
std::vector<Expr> ConvertCelu(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = FloatInput(node);
  const double alpha = node.Float("alpha", 1.0);
  if (alpha == 0.0) throw Error("attribute 'alpha' must not be 0");
  Expr scaled = builder.Call("divide", {data, Scalar(node, alpha, data)});
  return {builder.Call("multiply", {ExponentialLinear(node, scaled, 1.0), Scalar(node, alpha, data)})};
}

std::vector<Expr> ConvertThresholdedRelu(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = FloatInput(node);
  Expr above = builder.Call("greater", {data, Scalar(node, node.Float("alpha", 1.0), data)});
  return {builder.Call("where", {above, data, Scalar(node, 0.0, data)})};
}

// x + bias below -lambd, x - bias above lambd, 0 between.
std::vector<Expr> ConvertShrink(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = node.Input(0, "input");
  const double lambd = node.Float("lambd", 0.5);
  const double bias = node.Float("bias", 0.0);
  Expr below = builder.Call("less", {data, Scalar(node, -lambd, data)});
  Expr above = builder.Call("greater", {data, Scalar(node, lambd, data)});
  Expr raised = builder.Call("add", {data, Scalar(node, bias, data)});
  Expr lowered = builder.Call("subtract", {data, Scalar(node, bias, data)});
  return {builder.Call("where", {below, raised, builder.Call("where", {above, lowered, Scalar(node, 0.0, data)})})};
}

// x for x >= 0, slope * x below; slope broadcasts onto x.
std::vector<Expr> ConvertPRelu(OnnxNode& node) {
  if (node.opset() < 7) throw Error("PRelu before opset 7 (slope broadcast along channels) is not supported");
  FoldingBuilder& builder = node.builder();
  const Expr& data = node.Input(0, "X");
  const Expr& slope = node.Input(1, "slope");
  Expr negative = builder.Call("less", {data, Scalar(node, 0.0, data)});
  return {builder.Call("where", {negative, builder.Call("multiply", {data, slope}), data})};
}

// log(exp(x) + 1).
std::vector<Expr> ConvertSoftplus(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = FloatInput(node);
  return {builder.Call("log", {builder.Call("add", {builder.Call("exp", {data}), Scalar(node, 1.0, data)})})};
}

// x / (1 + |x|).
std::vector<Expr> ConvertSoftsign(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = FloatInput(node);
  return {builder.Call("divide", {data, builder.Call("add", {builder.Call("abs", {data}), Scalar(node, 1.0, data)})})};
}

// NaN is the one value unequal to itself.
std::vector<Expr> ConvertIsNaN(OnnxNode& node) {
  const Expr& data = FloatInput(node);
  return {node.builder().Call("not_equal", {data, data})};
}

std::vector<Expr> ConvertIsInf(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = FloatInput(node);
  const double infinity = std::numeric_limits<double>::infinity();
  Expr positive = builder.Call("equal", {data, Scalar(node, infinity, data)});
  Expr negative = builder.Call("equal", {data, Scalar(node, -infinity, data)});
  const bool detect_positive = node.Int("detect_positive", 1) != 0;
  const bool detect_negative = node.Int("detect_negative", 1) != 0;
  if (detect_positive && detect_negative) return {builder.Call("logical_or", {positive, negative})};
  if (detect_positive) return {positive};
  if (detect_negative) return {negative};
  return {builder.Call("logical_and", {positive, negative})};  // never true
}

// fmod = 1: the sign of the dividend (C's fmod); fmod = 0: the sign of the divisor (Python's
// %), which ONNX allows for integers only.
std::vector<Expr> ConvertMod(OnnxNode& node) {
  const Expr& lhs = node.Input(0, "A");
  const Expr& rhs = node.Input(1, "B");
  const bool fmod = node.Int("fmod", 0) != 0;
  if (!fmod && IsFloatingPoint(TensorTypeOf(lhs).dtype)) {
    throw Error("attribute 'fmod' must be 1 for floating-point inputs");
  }
  return {node.builder().Call(fmod ? "truncated_mod" : "floor_mod", {lhs, rhs})};
}

}  // namespace

void RegisterActivationConverters(OnnxConverterTable& table) {
  table.Add("Elu", ConvertElu);
  table.Add("Selu", ConvertSelu);
  table.Add("Celu", ConvertCelu);
  table.Add("ThresholdedRelu", ConvertThresholdedRelu);
  table.Add("Shrink", ConvertShrink);
  table.Add("PRelu", ConvertPRelu);
  table.Add("Softplus", ConvertSoftplus);
  table.Add("Softsign", ConvertSoftsign);
  table.Add("IsNaN", ConvertIsNaN);
  table.Add("IsInf", ConvertIsInf);
  table.Add("Mod", ConvertMod);
}

}  // namespace collage
