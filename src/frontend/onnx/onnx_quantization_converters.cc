// ONNX linear quantization written with elementwise ops: QuantizeLinear (round half to even,
// add the zero point, saturate to the integer type), DequantizeLinear ((x - zero point) *
// scale) and DynamicQuantizeLinear (u8 with the scale and zero point from the data's range).
// Scales and zero points are per tensor, or per slice along `axis` when 1-D.
//
// The integer products MatMulInteger and ConvInteger, and QLinearMatMul and QLinearConv (the
// same products requantized), subtract the zero points in i32 and sum products with einsum,
// whose integer kernel computes in int64: exact, like ONNX's int32 accumulation. A
// convolution is the sum over kernel offsets of strided slices of the padded input times
// that offset's weights, so it needs no float arithmetic that could round.
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

// `value` as i32 minus its zero point (input `zero_point_index`, when present). A 1-D zero
// point of more than one value applies along `axis` (a negative axis counts from the end).
Expr CenteredInt32(OnnxNode& node, const Expr& value, size_t zero_point_index, int64_t axis) {
  FoldingBuilder& builder = node.builder();
  const DType dtype = TensorTypeOf(value).dtype;
  if (dtype != DType::kU8 && dtype != DType::kI8) {
    throw Error("the quantized inputs must be u8 or i8, got " + std::string(DTypeName(dtype)));
  }
  Expr centered = CastTo(builder, value, DType::kI32);
  if (!node.HasInput(zero_point_index)) return centered;
  const Expr& zero_point = node.Input(zero_point_index, "zero point");
  const Shape& shape = TensorTypeOf(zero_point).shape;
  Expr point = CastTo(builder, zero_point, DType::kI32);
  if (NumElements(shape) > 1 || (shape.size() == 1 && shape[0] != 1)) {
    if (shape.size() != 1) throw Error("zero points must be scalars or 1-D, got " + ShapeToString(shape));
    const int64_t rank = static_cast<int64_t>(TensorTypeOf(value).shape.size());
    std::vector<int64_t> broadcast(static_cast<size_t>(rank), 1);
    broadcast[static_cast<size_t>(NormalizeAxis(axis, rank, "the zero point's axis"))] = shape[0];
    point = builder.Call("reshape", {point}, {{"newshape", broadcast}});
  } else if (shape.size() == 1) {
    point = builder.Call("reshape", {point}, {{"newshape", std::vector<int64_t>{}}});
  }
  return builder.Call("subtract", {centered, point});
}

// The i32 product of a [..., M, K] and b [..., K, N] with the same leading dimensions.
Expr IntegerMatMul(FoldingBuilder& builder, const Expr& a, const Expr& b) {
  const Shape& a_shape = TensorTypeOf(a).shape;
  const Shape& b_shape = TensorTypeOf(b).shape;
  if (a_shape.size() < 2 || a_shape.size() != b_shape.size()) {
    throw Error("the operands must have the same rank of at least 2, got shapes " + ShapeToString(a_shape) + " and " +
                ShapeToString(b_shape));
  }
  return builder.Call("einsum", {a, b}, {{"equation", std::string("...ij,...jk->...ik")}});
}

// The i32 convolution of NCHW data x with weights [M, C, kh, kw] (one group), both centered.
Expr IntegerConv2D(OnnxNode& node, const Expr& x, const Expr& w) {
  FoldingBuilder& builder = node.builder();
  const Shape& x_shape = TensorTypeOf(x).shape;
  const Shape& w_shape = TensorTypeOf(w).shape;
  if (x_shape.size() != 4 || w_shape.size() != 4) {
    throw Error("only 2-D convolutions of NCHW data are supported, got x " + ShapeToString(x_shape) + " and w " +
                ShapeToString(w_shape));
  }
  if (node.Int("group", 1) != 1) throw Error("attribute 'group' other than 1 is not supported");
  if (w_shape[1] != x_shape[1]) {
    throw Error("w has " + std::to_string(w_shape[1]) + " input channels for x with " + std::to_string(x_shape[1]));
  }
  const Window2DAttrs window = ReadWindow2D(node, {x_shape[2], x_shape[3]}, {w_shape[2], w_shape[3]});
  const std::vector<int64_t>& pad = window.padding;
  Expr padded = builder.Call("nn.pad", {x}, {{"pad_width", std::vector<int64_t>{0, 0, pad[0], pad[1], 0, 0, pad[2], pad[3]}}});
  std::vector<int64_t> out(2);
  for (size_t d = 0; d < 2; ++d) {
    const int64_t extent = x_shape[2 + d] + pad[d] + pad[d + 2];
    const int64_t span = (window.kernel[d] - 1) * window.dilation[d] + 1;
    if (extent < span) throw Error("the kernel is larger than the padded input");
    out[d] = (extent - span) / window.strides[d] + 1;
  }
  Expr sum;
  for (int64_t ky = 0; ky < window.kernel[0]; ++ky) {
    for (int64_t kx = 0; kx < window.kernel[1]; ++kx) {
      const std::vector<int64_t> begin = {ky * window.dilation[0], kx * window.dilation[1]};
      Expr patch = builder.Call("strided_slice", {padded},
                                {{"begin", begin},
                                 {"end", std::vector<int64_t>{begin[0] + window.strides[0] * (out[0] - 1) + 1,
                                                              begin[1] + window.strides[1] * (out[1] - 1) + 1}},
                                 {"strides", window.strides},
                                 {"axes", std::vector<int64_t>{2, 3}}});
      Expr tap = builder.Call("strided_slice", {w},
                              {{"begin", std::vector<int64_t>{ky, kx}},
                               {"end", std::vector<int64_t>{ky + 1, kx + 1}},
                               {"axes", std::vector<int64_t>{2, 3}}});
      tap = builder.Call("reshape", {tap}, {{"newshape", std::vector<int64_t>{w_shape[0], w_shape[1]}}});
      Expr product = builder.Call("einsum", {patch, tap}, {{"equation", std::string("nchw,mc->nmhw")}});
      sum = sum ? builder.Call("add", {sum, product}) : product;
    }
  }
  return sum;
}

std::vector<Expr> ConvertMatMulInteger(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  Expr a = CenteredInt32(node, node.Input(0, "A"), 2, -2);
  Expr b = CenteredInt32(node, node.Input(1, "B"), 3, -1);
  return {IntegerMatMul(builder, a, b)};
}

std::vector<Expr> ConvertConvInteger(OnnxNode& node) {
  Expr x = CenteredInt32(node, node.Input(0, "x"), 2, 1);
  Expr w = CenteredInt32(node, node.Input(1, "w"), 3, 0);
  return {IntegerConv2D(node, x, w)};
}

// saturate(round(accumulated * a_scale * b_scale / y_scale) + y_zero_point) in the dtype of the
// output zero point; `b_scale` may be per output channel along `channel_axis`.
Expr Requantize(OnnxNode& node, const Expr& accumulated, size_t a_scale_index, size_t b_scale_index,
                size_t y_scale_index, size_t y_zero_point_index, int64_t channel_axis) {
  FoldingBuilder& builder = node.builder();
  const int64_t rank = static_cast<int64_t>(TensorTypeOf(accumulated).shape.size());
  auto scale = [&](size_t index, const std::string& what) {
    const Expr& value = node.Input(index, what);
    if (index != b_scale_index && NumElements(TensorTypeOf(value).shape) != 1) {
      throw Error("input " + what + " must hold one value");
    }
    if (NumElements(TensorTypeOf(value).shape) == 1) {
      return builder.Call("reshape", {CastTo(builder, value, DType::kF32)}, {{"newshape", std::vector<int64_t>{}}});
    }
    std::vector<int64_t> broadcast(static_cast<size_t>(rank), 1);
    broadcast[static_cast<size_t>(NormalizeAxis(channel_axis, rank, "the scale's axis"))] =
        NumElements(TensorTypeOf(value).shape);
    return builder.Call("reshape", {CastTo(builder, value, DType::kF32)}, {{"newshape", broadcast}});
  };
  Expr real = builder.Call("multiply", {CastTo(builder, accumulated, DType::kF32),
                                        builder.Call("multiply", {scale(a_scale_index, "a_scale"),
                                                                  scale(b_scale_index, "b_scale")})});
  Expr scaled = builder.Call("divide", {real, scale(y_scale_index, "y_scale")});
  const Expr& y_zero_point = node.Input(y_zero_point_index, "y_zero_point");
  const DType dtype = TensorTypeOf(y_zero_point).dtype;
  if (NumElements(TensorTypeOf(y_zero_point).shape) != 1) throw Error("input y_zero_point must hold one value");
  Expr point = builder.Call("reshape", {CastTo(builder, y_zero_point, DType::kF32)}, {{"newshape", std::vector<int64_t>{}}});
  return RoundAndSaturate(builder, scaled, point, dtype);
}

// Inputs a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
std::vector<Expr> ConvertQLinearMatMul(OnnxNode& node) {
  Expr a = CenteredInt32(node, node.Input(0, "a"), 2, -2);
  Expr b = CenteredInt32(node, node.Input(3, "b"), 5, -1);
  return {Requantize(node, IntegerMatMul(node.builder(), a, b), 1, 4, 6, 7, -1)};
}

// Inputs x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B (i32).
std::vector<Expr> ConvertQLinearConv(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  Expr x = CenteredInt32(node, node.Input(0, "x"), 2, 1);
  Expr w = CenteredInt32(node, node.Input(3, "w"), 5, 0);
  Expr accumulated = IntegerConv2D(node, x, w);
  if (node.HasInput(8)) {
    const Expr& bias = node.Input(8, "B");
    if (TensorTypeOf(bias).dtype != DType::kI32) throw Error("input B must be i32");
    const int64_t channels = NumElements(TensorTypeOf(bias).shape);
    accumulated = builder.Call("add", {accumulated, builder.Call("reshape", {bias}, {{"newshape", std::vector<int64_t>{channels, 1, 1}}})});
  }
  return {Requantize(node, accumulated, 1, 4, 6, 7, 1)};
}

}  // namespace

void RegisterQuantizationConverters(OnnxConverterTable& table) {
  table.Add("MatMulInteger", ConvertMatMulInteger);
  table.Add("ConvInteger", ConvertConvInteger);
  table.Add("QLinearMatMul", ConvertQLinearMatMul);
  table.Add("QLinearConv", ConvertQLinearConv);
  table.Add("QuantizeLinear", ConvertQuantizeLinear);
  table.Add("DequantizeLinear", ConvertDequantizeLinear);
  table.Add("DynamicQuantizeLinear", ConvertDynamicQuantizeLinear);
}

}  // namespace collage
