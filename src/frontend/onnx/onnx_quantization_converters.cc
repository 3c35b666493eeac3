// ONNX linear quantization written with elementwise ops: QuantizeLinear (round half to even,
// add the zero point, saturate to the integer type), DequantizeLinear ((x - zero point) *
// scale) and DynamicQuantizeLinear (u8 with the scale and zero point from the data's range).
// Scales and zero points are per tensor, or per slice along `axis` when 1-D.
#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "support/shape.h"

namespace collage {
namespace {

// The range an integer type saturates to.
std::pair<double, double> SaturationRange(DType dtype) {
  if (dtype == DType::kU8) return {0.0, 255.0};
  if (dtype == DType::kI8) return {-128.0, 127.0};
  if (dtype == DType::kI32) return {-2147483648.0, 2147483647.0};
  throw Error("the quantized type must be u8, i8 or i32, got " + std::string(DTypeName(dtype)));
}

// A per-axis parameter (1-D, one value per slice along `axis` of data of `rank`) reshaped to
// broadcast onto the data; a scalar one as it is.
Expr AlongAxis(OnnxNode& node, const Expr& parameter, int64_t rank) {
  const Shape& shape = TensorTypeOf(parameter).shape;
  if (NumElements(shape) == 1 && shape.size() <= 1) return parameter;
  if (shape.size() != 1) throw Error("scale and zero point must be scalars or 1-D, got " + ShapeToString(shape));
  const int64_t axis = NormalizeAxis(node.Int("axis", 1), rank, "attribute 'axis'");
  std::vector<int64_t> broadcast(static_cast<size_t>(rank), 1);
  broadcast[static_cast<size_t>(axis)] = shape[0];
  return node.builder().Call("reshape", {parameter}, {{"newshape", broadcast}});
}

// saturate(round(value) + zero_point) as `dtype`; `value` and `zero_point` are f32.
Expr RoundAndSaturate(FoldingBuilder& builder, const Expr& value, const Expr& zero_point, DType dtype) {
  const auto [low, high] = SaturationRange(dtype);
  Expr shifted = builder.Call("add", {builder.Call("round", {value}), zero_point});
  return CastTo(builder, builder.Call("clip", {shifted}, {{"a_min", low}, {"a_max", high}}), dtype);
}

std::vector<Expr> ConvertQuantizeLinear(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr x = CastTo(builder, node.Input(0, "x"), DType::kF32);
  const int64_t rank = node.InputRank(0);
  const Expr scale = AlongAxis(node, CastTo(builder, node.Input(1, "y_scale"), DType::kF32), rank);
  DType dtype = DType::kU8;
  Expr zero_point = ScalarConstant(builder, 0.0, DType::kF32);
  if (node.HasInput(2)) {
    dtype = TensorTypeOf(node.Input(2, "y_zero_point")).dtype;
    zero_point = AlongAxis(node, CastTo(builder, node.Input(2, "y_zero_point"), DType::kF32), rank);
  }
  return {RoundAndSaturate(builder, builder.Call("divide", {x, scale}), zero_point, dtype)};
}

std::vector<Expr> ConvertDequantizeLinear(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  Expr x = CastTo(builder, node.Input(0, "x"), DType::kF32);
  const int64_t rank = node.InputRank(0);
  if (node.HasInput(2)) {
    x = builder.Call("subtract",
                     {x, AlongAxis(node, CastTo(builder, node.Input(2, "x_zero_point"), DType::kF32), rank)});
  }
  return {builder.Call("multiply", {x, AlongAxis(node, CastTo(builder, node.Input(1, "x_scale"), DType::kF32), rank)})};
}

// scale = (max(0, max x) - min(0, min x)) / 255, zero point = saturate(round(-min(0, min x) /
// scale)), y = saturate(round(x / scale) + zero point), all as u8.
std::vector<Expr> ConvertDynamicQuantizeLinear(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& x = node.Input(0, "x");
  if (TensorTypeOf(x).dtype != DType::kF32) throw Error("input x must be f32");
  const Attrs all = {{"axis", std::vector<int64_t>{}}, {"keepdims", int64_t{0}}};
  const Expr zero = ScalarConstant(builder, 0.0, DType::kF32);
  Expr high = builder.Call("maximum", {builder.Call("max", {x}, all), zero});
  Expr low = builder.Call("minimum", {builder.Call("min", {x}, all), zero});
  Expr scale = builder.Call("divide", {builder.Call("subtract", {high, low}), ScalarConstant(builder, 255.0, DType::kF32)});
  Expr zero_point = RoundAndSaturate(builder, builder.Call("divide", {builder.Call("negative", {low}), scale}), zero,
                                     DType::kU8);
  Expr y = RoundAndSaturate(builder, builder.Call("divide", {x, scale}), CastTo(builder, zero_point, DType::kF32),
                            DType::kU8);
  return {y, scale, zero_point};
}

}  // namespace

void RegisterQuantizationConverters(OnnxConverterTable& table) {
  table.Add("QuantizeLinear", ConvertQuantizeLinear);
  table.Add("DequantizeLinear", ConvertDequantizeLinear);
  table.Add("DynamicQuantizeLinear", ConvertDynamicQuantizeLinear);
}

}  // namespace collage
