// ONNX neural-network ops: Conv, ConvTranspose, Gemm, MatMul, BatchNormalization,
// LayerNormalization, InstanceNormalization, LRN, MeanVarianceNormalization, Softmax /
// LogSoftmax (both axis conventions), pooling, Pad, Resize, Upsample and GridSample.
// Only 2-D (NCHW) convolutions, pools and resizes are supported.
#include <cmath>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"

namespace collage {
namespace {

void ExpectInputRank(const OnnxNode& node, size_t index, int64_t rank, const std::string& what) {
  if (node.InputRank(index) != rank) {
    throw Error("input '" + what + "' must have rank " + std::to_string(rank) + ", got shape " +
                ShapeToString(node.InputShape(index)));
  }
}

// data + bias along the channel axis, when the optional bias input is present.
Expr WithChannelBias(OnnxNode& node, Expr result, size_t bias_index) {
  if (!node.HasInput(bias_index)) return result;
  return node.builder().Call("nn.bias_add", {result, node.Input(bias_index, "B")}, {{"axis", int64_t{1}}});
}

std::vector<int64_t> SpatialExtents(const Shape& shape) { return {shape[2], shape[3]}; }

std::vector<Expr> ConvertConv(OnnxNode& node) {
  ExpectInputRank(node, 0, 4, "X (only 2-D convolutions are supported)");
  ExpectInputRank(node, 1, 4, "W");
  const Shape& weight = node.InputShape(1);
  const Window2DAttrs window = ReadWindow2D(node, SpatialExtents(node.InputShape(0)), {weight[2], weight[3]});
  if (window.kernel != std::vector<int64_t>{weight[2], weight[3]}) {
    throw Error("attribute 'kernel_shape' does not match the weight shape " + ShapeToString(weight));
  }
  Expr conv = node.builder().Call("nn.conv2d", {node.Input(0, "X"), node.Input(1, "W")},
                                  {{"strides", window.strides},
                                   {"padding", window.padding},
                                   {"dilation", window.dilation},
                                   {"groups", node.Int("group", 1)}});
  return {WithChannelBias(node, conv, 2)};
}

// ConvTranspose: padding from pads / auto_pad, or from output_shape when given.
std::vector<Expr> ConvertConvTranspose(OnnxNode& node) {
  ExpectInputRank(node, 0, 4, "X (only 2-D transposed convolutions are supported)");
  ExpectInputRank(node, 1, 4, "W");
  const Shape& input = node.InputShape(0);
  const Shape& weight = node.InputShape(1);
  std::vector<int64_t> output_padding = node.Ints("output_padding", {0, 0});
  ExpectCount(output_padding, 2, "attribute 'output_padding'");
  ExpectBounded(output_padding, "attribute 'output_padding'");
  const std::string auto_pad = node.String("auto_pad", "NOTSET");
  // Transposed convolutions read pads as-is; SAME_* is resolved below from the output size.
  Window2DAttrs window = ReadWindow2D(node, SpatialExtents(input), {weight[2], weight[3]});
  std::optional<std::vector<int64_t>> output_shape = node.OptionalInts("output_shape");
  if (output_shape && output_shape->size() == 4) {
    output_shape = std::vector<int64_t>{(*output_shape)[2], (*output_shape)[3]};
  }
  if (output_shape) {
    ExpectCount(*output_shape, 2, "attribute 'output_shape'");
    ExpectBounded(*output_shape, "attribute 'output_shape'");
  }
  for (int axis = 0; axis < 2; ++axis) {
    // The extent before cropping the padding: strides * (in - 1) + output_padding + dilated kernel.
    const __int128 wide_full = static_cast<__int128>(window.strides[axis]) * (input[2 + axis] - 1) +
                               output_padding[axis] +
                               static_cast<__int128>(window.kernel[axis] - 1) * window.dilation[axis] + 1;
    if (wide_full > kMaxShapeAttribute) throw Error("the transposed convolution's output would be too large");
    const auto full = static_cast<int64_t>(wide_full);
    if (!output_shape && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER") continue;
    const int64_t target = output_shape ? (*output_shape)[axis] : input[2 + axis] * window.strides[axis];
    const int64_t total = full - target;
    if (total < 0) throw Error("attribute 'output_shape' is larger than the transposed convolution can produce");
    const int64_t half = total / 2;
    const bool upper = auto_pad == "SAME_UPPER";
    window.padding[axis] = upper ? half : total - half;
    window.padding[axis + 2] = upper ? total - half : half;
  }
  Expr conv = node.builder().Call("nn.conv2d_transpose", {node.Input(0, "X"), node.Input(1, "W")},
                                  {{"strides", window.strides},
                                   {"padding", window.padding},
                                   {"output_padding", output_padding},
                                   {"dilation", window.dilation},
                                   {"groups", node.Int("group", 1)}});
  return {WithChannelBias(node, conv, 2)};
}

Expr Scaled(FoldingBuilder& builder, const Expr& value, double factor) {
  if (factor == 1.0) return value;
  return builder.Call("multiply", {value, ScalarConstant(builder, factor, TensorTypeOf(value).dtype)});
}

// Gemm: alpha * A' B' + beta * C as nn.dense (weight [N, K]) plus a bias.
std::vector<Expr> ConvertGemm(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  ExpectInputRank(node, 0, 2, "A");
  ExpectInputRank(node, 1, 2, "B");
  Expr a = node.Input(0, "A");
  if (node.Int("transA", 0) != 0) a = TransposeMatrix(builder, a);
  Expr weight = node.Input(1, "B");
  if (node.Int("transB", 0) == 0) weight = TransposeMatrix(builder, weight);
  weight = Scaled(builder, weight, node.Float("alpha", 1.0));
  Expr result = builder.Call("nn.dense", {a, weight});
  if (!node.HasInput(2)) return {result};
  Expr bias = Scaled(builder, node.Input(2, "C"), node.Float("beta", 1.0));
  const Shape& bias_shape = TensorTypeOf(bias).shape;
  const int64_t units = TensorTypeOf(result).shape[1];
  if (bias_shape == Shape{units}) return {builder.Call("nn.bias_add", {result, bias}, {{"axis", int64_t{1}}})};
  return {builder.Call("add", {result, bias})};
}

// MatMul with a constant 2-D right operand becomes nn.dense (the weight transposed at import);
// anything else is nn.matmul with numpy semantics.
std::vector<Expr> ConvertMatMul(OnnxNode& node) {
  const Expr& a = node.Input(0, "A");
  const Expr& b = node.Input(1, "B");
  if (ConstantValue(b) != nullptr && node.InputRank(1) == 2 && node.InputRank(0) >= 2) {
    return {node.builder().Call("nn.dense", {a, TransposeMatrix(node.builder(), b)})};
  }
  return {node.builder().Call("nn.matmul", {a, b})};
}

std::vector<Expr> ConvertBatchNormalization(OnnxNode& node) {
  if (node.Int("training_mode", 0) != 0) throw Error("training_mode = 1 is not supported (inference only)");
  if (node.Int("spatial", 1) != 1) throw Error("spatial = 0 (opset 7 and 8) is not supported");
  if (node.opset() < 7 && node.Int("is_test", 0) == 0) {
    throw Error("is_test = 0 (before opset 7) is training mode; only inference is supported");
  }
  std::vector<Expr> args;
  const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (size_t i = 0; i < 5; ++i) args.push_back(node.Input(i, names[i]));
  return {node.builder().Call("nn.batch_norm", std::move(args), {{"epsilon", node.Float("epsilon", 1e-5)}}), nullptr,
          nullptr};
}

// LayerNormalization normalizes over axes [axis, rank); the IR op over one axis, so several
// trailing axes are merged into one around it.
std::vector<Expr> ConvertLayerNormalization(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = node.Input(0, "X");
  const Shape& shape = node.InputShape(0);
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t axis = NormalizeAxis(node.Int("axis", -1), rank, "attribute 'axis'");
  const Shape normalized(shape.begin() + axis, shape.end());
  const int64_t extent = NumElements(normalized);
  const DType dtype = TensorTypeOf(data).dtype;
  auto as_vector = [&](const Expr& parameter) {
    Expr full = parameter;
    if (TensorTypeOf(full).shape != normalized) full = builder.Call("broadcast_to", {full}, {{"shape", normalized}});
    if (normalized.size() == 1) return full;
    return builder.Call("reshape", {full}, {{"newshape", std::vector<int64_t>{extent}}});
  };
  Expr gamma = as_vector(node.Input(1, "Scale"));
  Expr beta = node.HasInput(2) ? as_vector(node.Input(2, "B")) : builder.Constant(Tensor::Zeros(dtype, {extent}));
  const double epsilon = node.Float("epsilon", 1e-5);
  const Attrs attrs = {{"axis", int64_t{-1}}, {"epsilon", epsilon}};
  std::vector<Expr> outputs;
  if (axis == rank - 1) {
    outputs.push_back(builder.Call("nn.layer_norm", {data, gamma, beta}, attrs));
  } else {
    Shape merged(shape.begin(), shape.begin() + axis);
    merged.push_back(extent);
    Expr flat = builder.Call("reshape", {data}, {{"newshape", merged}});
    Expr result = builder.Call("nn.layer_norm", {flat, gamma, beta}, attrs);
    outputs.push_back(builder.Call("reshape", {result}, {{"newshape", shape}}));
  }
  if (node.num_outputs() > 1) {
    // The optional outputs: the mean and 1 / sqrt(variance + epsilon) over the normalized
    // axes, kept as 1s.
    std::vector<int64_t> axes;
    for (int64_t d = axis; d < rank; ++d) axes.push_back(d);
    const Attrs kept = {{"axis", axes}, {"keepdims", int64_t{1}}};
    Expr mean = builder.Call("mean", {data}, kept);
    Expr centered = builder.Call("subtract", {data, mean});
    Expr variance = builder.Call("mean", {builder.Call("multiply", {centered, centered})}, kept);
    outputs.push_back(mean);
    outputs.push_back(builder.Call("rsqrt", {builder.Call("add", {variance, ScalarConstant(builder, epsilon, dtype)})}));
  }
  return outputs;
}

std::vector<Expr> ConvertLRN(OnnxNode& node) {
  return {node.builder().Call("nn.lrn", {node.Input(0, "X")},
                              {{"size", node.RequiredInt("size")},
                               {"alpha", node.Float("alpha", 1e-4)},
                               {"beta", node.Float("beta", 0.75)},
                               {"bias", node.Float("bias", 1.0)}})};
}

// (x - mean) / sqrt(variance + epsilon) with the statistics over `axes`.
Expr NormalizeOverAxes(FoldingBuilder& builder, const Expr& data, const std::vector<int64_t>& axes, double epsilon) {
  const Attrs kept = {{"axis", axes}, {"keepdims", int64_t{1}}};
  Expr centered = builder.Call("subtract", {data, builder.Call("mean", {data}, kept)});
  Expr variance = builder.Call("mean", {builder.Call("multiply", {centered, centered})}, kept);
  Expr shifted = builder.Call("add", {variance, ScalarConstant(builder, epsilon, TensorTypeOf(data).dtype)});
  return builder.Call("divide", {centered, builder.Call("sqrt", {shifted})});
}

// Over `axes` (default N, H, W), with ONNX's epsilon of 1e-9.
std::vector<Expr> ConvertMeanVarianceNormalization(OnnxNode& node) {
  return {NormalizeOverAxes(node.builder(), node.Input(0, "X"), node.Ints("axes", {0, 2, 3}), 1e-9)};
}

// Each (sample, channel) normalized over its spatial axes, then scaled and shifted per channel.
std::vector<Expr> ConvertInstanceNormalization(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = node.Input(0, "input");
  const int64_t rank = node.InputRank(0);
  if (rank < 3) throw Error("input must have rank >= 3 ([N, C, D1, ...]), got " + ShapeToString(node.InputShape(0)));
  std::vector<int64_t> spatial;
  for (int64_t d = 2; d < rank; ++d) spatial.push_back(d);
  std::vector<int64_t> after_channels;  // the scale [C] as [C, 1, ...]
  for (int64_t d = 1; d + 1 < rank; ++d) after_channels.push_back(d);
  Expr normalized = NormalizeOverAxes(builder, data, spatial, node.Float("epsilon", 1e-5));
  Expr scale = builder.Call("expand_dims", {node.Input(1, "scale")}, {{"axes", after_channels}});
  Expr scaled = builder.Call("multiply", {normalized, scale});
  return {builder.Call("nn.bias_add", {scaled, node.Input(2, "B")}, {{"axis", int64_t{1}}})};
}

// Softmax and LogSoftmax. From opset 13 they work along `axis` (default -1); before, the input
// is coerced to 2-D at `axis` (default 1) and normalized over everything from axis on.
OnnxConverter SoftmaxLike(const std::string& op_name) {
  return [op_name](OnnxNode& node) -> std::vector<Expr> {
    FoldingBuilder& builder = node.builder();
    const Expr& data = node.Input(0, "input");
    const Shape& shape = node.InputShape(0);
    const int64_t rank = static_cast<int64_t>(shape.size());
    if (node.opset() >= 13) return {builder.Call(op_name, {data}, {{"axis", node.Int("axis", -1)}})};
    const int64_t axis = NormalizeAxis(node.Int("axis", 1), rank, "attribute 'axis'");
    if (axis == rank - 1) return {builder.Call(op_name, {data}, {{"axis", int64_t{-1}}})};
    Expr flat = builder.Call("flatten", {data}, {{"axis", axis}});
    Expr result = builder.Call(op_name, {flat}, {{"axis", int64_t{-1}}});
    return {builder.Call("reshape", {result}, {{"newshape", shape}})};
  };
}

Attrs PoolAttrs(const OnnxNode& node) {
  ExpectInputRank(node, 0, 4, "X (only 2-D pooling is supported)");
  const Window2DAttrs window = ReadWindow2D(node, SpatialExtents(node.InputShape(0)), {});
  return {{"pool_size", window.kernel},
          {"strides", window.strides},
          {"padding", window.padding},
          {"dilation", window.dilation},
          {"ceil_mode", node.Int("ceil_mode", 0)}};
}

std::vector<Expr> ConvertMaxPool(OnnxNode& node) {
  if (node.Int("storage_order", 0) != 0) throw Error("storage_order = 1 is not supported");
  return {node.builder().Call("nn.max_pool2d", {node.Input(0, "X")}, PoolAttrs(node)), nullptr};
}

std::vector<Expr> ConvertAveragePool(OnnxNode& node) {
  Attrs attrs = PoolAttrs(node);
  attrs.Set("count_include_pad", node.Int("count_include_pad", 0));
  return {node.builder().Call("nn.avg_pool2d", {node.Input(0, "X")}, attrs)};
}

OnnxConverter GlobalPool(const std::string& op_name) {
  return [op_name](OnnxNode& node) -> std::vector<Expr> {
    ExpectInputRank(node, 0, 4, "X (only 2-D pooling is supported)");
    return {node.builder().Call(op_name, {node.Input(0, "X")})};
  };
}

// Pad: pads and the constant value as inputs (opset >= 11) or attributes (older).
std::vector<Expr> ConvertPad(OnnxNode& node) {
  const std::string mode = node.String("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") {
    throw Error("attribute 'mode' must be constant, reflect or edge, got '" + mode + "'");
  }
  std::optional<std::vector<int64_t>> pads = node.IntsFromAttrOrInput("pads", 1);
  if (!pads) throw Error("needs pads");
  ExpectCount(*pads, static_cast<size_t>(2 * node.InputRank(0)), "pads");
  ExpectBounded(*pads, "pads");
  if (node.HasInput(3)) throw Error("input 'axes' is not supported");
  double value = node.Float("value", 0.0);
  if (node.HasInput(2)) value = node.ScalarInput(2, "constant_value");
  return {node.builder().Call("nn.pad", {node.Input(0, "data")},
                              {{"pad_width", *pads}, {"pad_value", value}, {"mode", mode}})};
}

// The output extents of NCHW data of `shape` resized by `scales` (floor of extent * scale);
// `what` names the scales in errors.
std::vector<int64_t> ScaledExtents(const Shape& shape, const std::vector<double>& scales, const std::string& what) {
  if (scales.size() != 4) throw Error(what + " must have 4 values, got " + std::to_string(scales.size()));
  std::vector<int64_t> sizes;
  for (size_t d = 0; d < 4; ++d) {
    const double exact = static_cast<double>(shape[d]) * scales[d];
    if (!(scales[d] > 0.0 && exact <= static_cast<double>(kMaxShapeAttribute))) {
      throw Error(what + " gives an invalid output size");
    }
    sizes.push_back(static_cast<int64_t>(std::floor(exact)));
  }
  return sizes;
}

Expr Resize2D(OnnxNode& node, const std::vector<int64_t>& sizes, const std::vector<double>& scales,
              const std::string& method, const std::string& coordinate_mode, const std::string& rounding) {
  const Shape& shape = node.InputShape(0);
  if (sizes[0] != shape[0] || sizes[1] != shape[1]) throw Error("only the two spatial axes may be resized");
  std::vector<double> spatial_scales;
  if (!scales.empty()) spatial_scales = {scales[2], scales[3]};
  return node.builder().Call("image.resize2d", {node.Input(0, "X")},
                             {{"size", std::vector<int64_t>{sizes[2], sizes[3]}},
                              {"method", method},
                              {"coordinate_transformation_mode", coordinate_mode},
                              {"rounding_method", rounding},
                              {"cubic_coeff_a", node.Float("cubic_coeff_a", -0.75)},
                              {"exclude_outside", node.Int("exclude_outside", 0)},
                              {"scales", spatial_scales}});
}

// Resize of the two spatial axes of NCHW data, to `sizes` or by `scales` (which then also map
// output to input coordinates).
std::vector<Expr> ConvertResize(OnnxNode& node) {
  if (node.opset() < 11) throw Error("Resize before opset 11 (scales as input 1, no roi) is not supported");
  ExpectInputRank(node, 0, 4, "X (only resizing NCHW data is supported)");
  const std::string coordinate_mode = node.String("coordinate_transformation_mode", "half_pixel");
  if (coordinate_mode == "tf_crop_and_resize") {
    throw Error("coordinate_transformation_mode '" + coordinate_mode + "' is not supported");
  }
  std::vector<int64_t> sizes;
  std::vector<double> scales;
  if (node.HasInput(3) && node.ConstantInput(3, "sizes").NumElements() > 0) {
    sizes = node.IntsInput(3, "sizes");
    ExpectCount(sizes, 4, "input 'sizes'");
    ExpectBounded(sizes, "input 'sizes'");
  } else if (node.HasInput(2) && node.ConstantInput(2, "scales").NumElements() > 0) {
    scales = node.FloatsInput(2, "scales");
    sizes = ScaledExtents(node.InputShape(0), scales, "input 'scales'");
  } else {
    throw Error("needs a non-empty 'scales' or 'sizes' input");
  }
  return {Resize2D(node, sizes, scales, node.String("mode", "nearest"), coordinate_mode,
                   node.String("nearest_mode", "round_prefer_floor"))};
}

// Upsample (opsets 7 to 9, scales as an attribute, then as input 1): Resize with asymmetric
// coordinates and nearest rounding down.
std::vector<Expr> ConvertUpsample(OnnxNode& node) {
  ExpectInputRank(node, 0, 4, "X (only upsampling NCHW data is supported)");
  const std::vector<double> scales = node.opset() < 9 ? node.Floats("scales") : node.FloatsInput(1, "scales");
  const std::string mode = node.String("mode", "nearest");
  if (mode != "nearest" && mode != "linear") throw Error("attribute 'mode' must be nearest or linear, got '" + mode + "'");
  const std::vector<int64_t> sizes = ScaledExtents(node.InputShape(0), scales, "the scales");
  return {Resize2D(node, sizes, scales, mode, "asymmetric", "floor")};
}

}  // namespace

void RegisterNNConverters(OnnxConverterTable& table) {
  table.Add("Conv", ConvertConv);
  table.Add("ConvTranspose", ConvertConvTranspose);
  table.Add("Gemm", ConvertGemm);
  table.Add("MatMul", ConvertMatMul);
  table.Add("BatchNormalization", ConvertBatchNormalization);
  table.Add("LayerNormalization", ConvertLayerNormalization);
  table.Add("LRN", ConvertLRN);
  table.Add("MeanVarianceNormalization", ConvertMeanVarianceNormalization);
  table.Add("InstanceNormalization", ConvertInstanceNormalization);
  table.Add("Softmax", SoftmaxLike("nn.softmax"));
  table.Add("LogSoftmax", SoftmaxLike("nn.log_softmax"));
  table.Add("MaxPool", ConvertMaxPool);
  table.Add("AveragePool", ConvertAveragePool);
  table.Add("GlobalAveragePool", GlobalPool("nn.global_avg_pool2d"));
  table.Add("GlobalMaxPool", GlobalPool("nn.global_max_pool2d"));
  table.Add("Pad", ConvertPad);
  table.Add("Resize", ConvertResize);
  table.Add("Upsample", ConvertUpsample);
  table.Add("GridSample", [](OnnxNode& node) -> std::vector<Expr> {
    return {node.builder().Call("image.grid_sample", {node.Input(0, "X"), node.Input(1, "grid")},
                                {{"mode", node.String("mode", "bilinear")},
                                 {"padding_mode", node.String("padding_mode", "zeros")},
                                 {"align_corners", node.Int("align_corners", 0)}})};
  });
}

}  // namespace collage
