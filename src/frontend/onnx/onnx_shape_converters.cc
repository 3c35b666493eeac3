// ONNX ops that compute or change shapes: Shape, Size, Constant, ConstantOfShape, EyeLike, Range,
// Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Concat, Split, Slice, Gather, Expand, Tile.
//
// Shape-valued inputs (Reshape's shape, Expand's shape, Slice's bounds, ...) must be known at
// import time; the FoldingBuilder folds torch's Shape -> Gather -> Unsqueeze -> Concat chains
// on static shapes into such constants.
#include <cstring>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "op/type_relation_util.h"
#include "support/shape.h"

namespace collage {
namespace {

// Shape (with opset 15's start and end, clamped like Python slices).
std::vector<Expr> ConvertShape(OnnxNode& node) {
  const Shape& shape = node.InputShape(0);
  const int64_t rank = static_cast<int64_t>(shape.size());
  auto clamp_bound = [rank](int64_t bound) { return std::clamp<int64_t>(bound < 0 ? bound + rank : bound, 0, rank); };
  const int64_t start = clamp_bound(node.Int("start", 0));
  const int64_t end = clamp_bound(node.Int("end", rank));
  std::vector<int64_t> dims;
  for (int64_t d = start; d < end; ++d) dims.push_back(shape[d]);
  return {Int64VectorConstant(node.builder(), dims)};
}

std::vector<Expr> ConvertSize(OnnxNode& node) {
  return {ScalarConstant(node.builder(), static_cast<double>(NumElements(node.InputShape(0))), DType::kI64)};
}

// Constant: exactly one of value, value_float(s), value_int(s).
std::vector<Expr> ConvertConstant(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const std::string present = node.FirstPresentAttr({"value", "value_float", "value_floats", "value_int", "value_ints",
                                                     "sparse_value", "value_string", "value_strings"});
  if (present == "value") {
    return {
        builder.Constant(TensorFromOnnx(*node.TensorAttr("value"), "attribute 'value'", builder.max_folded_bytes()))};
  }
  if (present == "value_float") return {ScalarConstant(builder, node.Float("value_float", 0.0), DType::kF32)};
  if (present == "value_int")
    return {ScalarConstant(builder, static_cast<double>(node.Int("value_int", 0)), DType::kI64)};
  if (present == "value_ints") return {Int64VectorConstant(builder, node.Ints("value_ints"))};
  if (present == "value_floats") {
    const std::vector<double> values = node.Floats("value_floats");
    std::vector<float> floats(values.begin(), values.end());
    return {builder.Constant(Tensor::FromVector(floats, {static_cast<int64_t>(floats.size())}))};
  }
  if (present.empty()) throw Error("has none of the attributes value, value_float(s), value_int(s)");
  throw Error("attribute '" + present + "' is not supported (sparse and string constants)");
}

// A shape given as a constant input, with every dimension checked to be non-negative and the
// total size bounded.
Shape ShapeInput(OnnxNode& node, size_t index, const std::string& what, DType dtype) {
  Shape shape = node.IntsInput(index, what);
  CheckedNumElements(shape, static_cast<int64_t>(DTypeSize(dtype)), node.builder().max_folded_bytes(),
                     "input '" + what + "'");
  return shape;
}

// EyeLike: ones on the k-th diagonal of a 2-D tensor of the input's shape, zeros elsewhere,
// of attribute dtype (default: the input's); it depends on the shape only, so it is a constant.
std::vector<Expr> ConvertEyeLike(OnnxNode& node) {
  const Shape& shape = node.InputShape(0);
  if (shape.size() != 2) throw Error("input must be 2-D, got " + ShapeToString(shape));
  const DType dtype = node.HasAttr("dtype") ? DTypeFromOnnx(static_cast<int32_t>(node.Int("dtype", 0)))
                                            : TensorTypeOf(node.Input(0, "input")).dtype;
  const int64_t k = node.Int("k", 0);
  Tensor eye = Tensor::Zeros(dtype, shape);
  for (int64_t row = 0; row < shape[0]; ++row) {
    const int64_t column = row + k;
    if (column >= 0 && column < shape[1]) eye.SetFromDouble(row * shape[1] + column, 1.0);
  }
  return {node.builder().Constant(std::move(eye))};
}

std::vector<Expr> ConvertConstantOfShape(OnnxNode& node) {
  Tensor fill = Tensor::Zeros(DType::kF32, {});
  if (const onnx::TensorProto* value = node.TensorAttr("value")) {
    fill = TensorFromOnnx(*value, "attribute 'value'", node.builder().max_folded_bytes());
    if (fill.NumElements() != 1) throw Error("attribute 'value' must hold one element");
  }
  const Shape shape = ShapeInput(node, 0, "input", fill.dtype());
  Tensor result = Tensor::Zeros(fill.dtype(), shape);
  const auto size = static_cast<int64_t>(DTypeSize(fill.dtype()));
  auto* bytes = static_cast<std::byte*>(result.raw_data());
  for (int64_t i = 0; i < result.NumElements(); ++i) std::memcpy(bytes + i * size, fill.raw_data(), size);
  return {node.builder().Constant(std::move(result))};
}

// Range: integer ranges are computed in int64, floating ones in double.
std::vector<Expr> ConvertRange(OnnxNode& node) {
  const DType dtype = node.ConstantInput(0, "start").dtype();
  const int64_t max_count = node.builder().max_folded_bytes() / static_cast<int64_t>(DTypeSize(dtype));
  if (IsInteger(dtype)) {
    const int64_t start = node.IntScalarInput(0, "start");
    const int64_t limit = node.IntScalarInput(1, "limit");
    const int64_t delta = node.IntScalarInput(2, "delta");
    if (delta == 0) throw Error("input 'delta' must not be zero");
    const __int128 span = static_cast<__int128>(limit) - start;
    const __int128 steps = span / delta + (span % delta != 0 && (span > 0) == (delta > 0) ? 1 : 0);
    if (steps > max_count) throw Error("the range has too many elements");
    const int64_t count = steps > 0 ? static_cast<int64_t>(steps) : 0;
    Tensor result = Tensor::Zeros(DType::kI64, {count});
    for (int64_t i = 0; i < count; ++i) {
      result.data<int64_t>()[i] = static_cast<int64_t>(start + static_cast<__int128>(i) * delta);  // in [start, limit)
    }
    return {CastTo(node.builder(), node.builder().Constant(std::move(result)), dtype)};
  }
  const double start = node.ScalarInput(0, "start");
  const double limit = node.ScalarInput(1, "limit");
  const double delta = node.ScalarInput(2, "delta");
  if (delta == 0.0) throw Error("input 'delta' must not be zero");
  const double steps = std::ceil((limit - start) / delta);
  if (!(steps <= static_cast<double>(max_count))) throw Error("the range has too many elements");
  const int64_t count = steps > 0.0 ? static_cast<int64_t>(steps) : 0;
  Tensor result = Tensor::Zeros(dtype, {count});
  for (int64_t i = 0; i < count; ++i) result.SetFromDouble(i, start + static_cast<double>(i) * delta);
  return {node.builder().Constant(std::move(result))};
}

// Reshape: 0 copies the input's dimension (unless allowzero), -1 is inferred by the op.
std::vector<Expr> ConvertReshape(OnnxNode& node) {
  const Expr& data = node.Input(0, "data");
  const Shape& input_shape = node.InputShape(0);
  std::vector<int64_t> newshape = node.IntsInput(1, "shape");
  const bool allow_zero = node.Int("allowzero", 0) != 0;
  for (size_t d = 0; d < newshape.size(); ++d) {
    if (newshape[d] == 0 && !allow_zero) {
      if (d >= input_shape.size()) {
        throw Error("input 'shape' has 0 at position " + std::to_string(d) + " but data " + ShapeToString(input_shape) +
                    " has no such dimension to copy");
      }
      newshape[d] = input_shape[d];
    } else if (newshape[d] < -1) {
      throw Error("input 'shape' has the invalid dimension " + std::to_string(newshape[d]));
    }
  }
  // The given dimensions cannot hold more elements than the data (bounded even for empty data,
  // so that no shape arithmetic overflows).
  Shape nonzero;
  for (int64_t dim : newshape) {
    if (dim > 0) nonzero.push_back(dim);
  }
  CheckedNumElements(nonzero, 1, std::max(NumElements(input_shape), kMaxShapeAttribute),
                     "input 'shape' " + ShapeToString(newshape) + " for data " + ShapeToString(input_shape));
  if (newshape == input_shape) return {data};
  return {node.builder().Call("reshape", {data}, {{"newshape", newshape}})};
}

std::vector<Expr> ConvertFlatten(OnnxNode& node) {
  return {node.builder().Call("flatten", {node.Input(0, "input")}, {{"axis", node.Int("axis", 1)}})};
}

std::vector<Expr> ConvertTranspose(OnnxNode& node) {
  return {node.builder().Call("transpose", {node.Input(0, "data")}, {{"axes", node.Ints("perm")}})};
}

std::vector<Expr> ConvertSqueeze(OnnxNode& node) {
  std::vector<int64_t> axes = node.IntsFromAttrOrInput("axes", 1).value_or(std::vector<int64_t>{});
  return {node.builder().Call("squeeze", {node.Input(0, "data")}, {{"axes", axes}})};
}

std::vector<Expr> ConvertUnsqueeze(OnnxNode& node) {
  std::optional<std::vector<int64_t>> axes = node.IntsFromAttrOrInput("axes", 1);
  if (!axes) throw Error("needs axes (an attribute before opset 13, the second input from opset 13)");
  return {node.builder().Call("expand_dims", {node.Input(0, "data")}, {{"axes", *axes}})};
}

std::vector<Expr> ConvertConcat(OnnxNode& node) {
  std::vector<Expr> inputs;
  for (size_t i = 0; i < node.num_inputs(); ++i) inputs.push_back(node.Input(i, "inputs"));
  if (inputs.empty()) throw Error("needs at least one input");
  const int64_t axis = node.RequiredInt("axis");
  if (inputs.size() == 1) {
    // The concatenation of one tensor is that tensor (torch exports DenseNet's first layer so).
    NormalizeAxis(axis, static_cast<int64_t>(node.InputShape(0).size()), "attribute 'axis'");
    return inputs;
  }
  return {node.builder().Call("concatenate", std::move(inputs), {{"axis", axis}})};
}

// Split: sizes from the attribute (opset < 13) or the input (opset >= 13); otherwise equal
// pieces, one per output.
std::vector<Expr> ConvertSplit(OnnxNode& node) {
  const Expr& data = node.Input(0, "input");
  const int64_t axis = node.Int("axis", 0);
  const Shape& shape = node.InputShape(0);
  const int64_t dimension = NormalizeAxis(axis, static_cast<int64_t>(shape.size()), "attribute 'axis'");
  const int64_t outputs = static_cast<int64_t>(node.num_outputs());
  std::vector<int64_t> sizes;
  if (std::optional<std::vector<int64_t>> given = node.IntsFromAttrOrInput("split", 1)) {
    sizes = *given;
    ExpectBounded(sizes, "the split sizes");
  } else {
    const int64_t extent = shape[dimension];
    const int64_t piece = (extent + outputs - 1) / std::max<int64_t>(outputs, 1);
    for (int64_t begin = 0; begin < extent; begin += piece) sizes.push_back(std::min(piece, extent - begin));
  }
  if (static_cast<int64_t>(sizes.size()) != outputs) {
    throw Error("splits into " + std::to_string(sizes.size()) + " pieces but the node has " + std::to_string(outputs) +
                " outputs");
  }
  Expr pieces = node.builder().Call("split", {data}, {{"sizes", sizes}, {"axis", axis}});
  std::vector<Expr> results;
  for (int64_t i = 0; i < outputs; ++i) results.push_back(node.builder().TupleItem(pieces, static_cast<int>(i)));
  return results;
}

// Slice: bounds from inputs (opset >= 10) or attributes (older).
std::vector<Expr> ConvertSlice(OnnxNode& node) {
  std::optional<std::vector<int64_t>> starts = node.IntsFromAttrOrInput("starts", 1);
  std::optional<std::vector<int64_t>> ends = node.IntsFromAttrOrInput("ends", 2);
  if (!starts || !ends) throw Error("needs starts and ends");
  Attrs attrs = {{"begin", *starts}, {"end", *ends}};
  if (std::optional<std::vector<int64_t>> axes = node.IntsFromAttrOrInput("axes", 3)) attrs.Set("axes", *axes);
  if (node.HasInput(4)) attrs.Set("strides", node.IntsInput(4, "steps"));
  return {node.builder().Call("strided_slice", {node.Input(0, "data")}, attrs)};
}

std::vector<Expr> ConvertGather(OnnxNode& node) {
  return {
      node.builder().Call("take", {node.Input(0, "data"), node.Input(1, "indices")}, {{"axis", node.Int("axis", 0)}})};
}

// Expand broadcasts both ways: the result shape is broadcast(input shape, shape).
std::vector<Expr> ConvertExpand(OnnxNode& node) {
  const Expr& data = node.Input(0, "input");
  const Shape& input_shape = node.InputShape(0);
  const Shape requested = ShapeInput(node, 1, "shape", TensorTypeOf(data).dtype);
  const Shape target = BroadcastShapes(input_shape, requested);
  CheckedNumElements(target, static_cast<int64_t>(DTypeSize(TensorTypeOf(data).dtype)),
                     node.builder().max_folded_bytes(), "the expanded result");
  if (target == input_shape) return {data};
  return {node.builder().Call("broadcast_to", {data}, {{"shape", target}})};
}

// Tile: each dimension repeated by concatenation.
std::vector<Expr> ConvertTile(OnnxNode& node) {
  if (node.opset() < 6) throw Error("Tile before opset 6 (tiles and axis inputs) is not supported");
  const Expr& data = node.Input(0, "input");
  const Shape& shape = node.InputShape(0);
  const std::vector<int64_t> repeats = node.IntsInput(1, "repeats");
  ExpectCount(repeats, shape.size(), "input 'repeats'");
  // [d0, d1, ...] -> [1, d0, 1, d1, ...] -> broadcast to [r0, d0, r1, d1, ...] -> [r0 * d0, r1 * d1, ...]
  Shape interleaved;
  Shape broadcast;
  Shape tiled;
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (repeats[axis] < 0) throw Error("input 'repeats' must not be negative");
    int64_t extent = 0;
    if (__builtin_mul_overflow(shape[axis], repeats[axis], &extent)) throw Error("input 'repeats' is too large");
    interleaved.insert(interleaved.end(), {1, shape[axis]});
    broadcast.insert(broadcast.end(), {repeats[axis], shape[axis]});
    tiled.push_back(extent);
  }
  CheckedNumElements(broadcast, static_cast<int64_t>(DTypeSize(TensorTypeOf(data).dtype)),
                     node.builder().max_folded_bytes(), "the tiled result");
  if (tiled == shape) return {data};
  FoldingBuilder& builder = node.builder();
  Expr spread = builder.Call("reshape", {data}, {{"newshape", interleaved}});
  Expr repeated = builder.Call("broadcast_to", {spread}, {{"shape", broadcast}});
  return {builder.Call("reshape", {repeated}, {{"newshape", tiled}})};
}

}  // namespace

void RegisterShapeConverters(OnnxConverterTable& table) {
  table.Add("Shape", ConvertShape);
  table.Add("Size", ConvertSize);
  table.Add("Constant", ConvertConstant);
  table.Add("ConstantOfShape", ConvertConstantOfShape);
  table.Add("EyeLike", ConvertEyeLike);
  table.Add("Range", ConvertRange);
  table.Add("Reshape", ConvertReshape);
  table.Add("Flatten", ConvertFlatten);
  table.Add("Transpose", ConvertTranspose);
  table.Add("Squeeze", ConvertSqueeze);
  table.Add("Unsqueeze", ConvertUnsqueeze);
  table.Add("Concat", ConvertConcat);
  table.Add("Split", ConvertSplit);
  table.Add("Slice", ConvertSlice);
  table.Add("Gather", ConvertGather);
  table.Add("Expand", ConvertExpand);
  table.Add("Tile", ConvertTile);
}

}  // namespace collage
