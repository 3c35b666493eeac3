// ONNX ops that index, sort or rearrange elements: GatherElements, ScatterElements (and the
// deprecated Scatter), GatherND, ScatterND, OneHot, TopK, CumSum, Trilu, Hardmax,
// DepthToSpace, SpaceToDepth, Einsum and ReverseSequence (sequence lengths known at import
// time: a gather_elements of constant indices).
#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "op/kernel_util.h"
#include "support/shape.h"

namespace collage {
namespace {

std::vector<Expr> ConvertGatherElements(OnnxNode& node) {
  return {node.builder().Call("gather_elements", {node.Input(0, "data"), node.Input(1, "indices")},
                              {{"axis", node.Int("axis", 0)}})};
}

std::vector<Expr> ConvertScatterElements(OnnxNode& node) {
  return {node.builder().Call("scatter_elements",
                              {node.Input(0, "data"), node.Input(1, "indices"), node.Input(2, "updates")},
                              {{"axis", node.Int("axis", 0)}, {"reduction", node.String("reduction", "none")}})};
}

std::vector<Expr> ConvertGatherND(OnnxNode& node) {
  return {node.builder().Call("gather_nd", {node.Input(0, "data"), node.Input(1, "indices")},
                              {{"batch_dims", node.Int("batch_dims", 0)}})};
}

std::vector<Expr> ConvertScatterND(OnnxNode& node) {
  return {node.builder().Call("scatter_nd", {node.Input(0, "data"), node.Input(1, "indices"), node.Input(2, "updates")},
                              {{"reduction", node.String("reduction", "none")}})};
}

// OneHot(indices, depth, values): depth must be known at import time.
std::vector<Expr> ConvertOneHot(OnnxNode& node) {
  const double depth = node.ScalarInput(1, "depth");
  if (!(depth >= 1 && depth <= static_cast<double>(kMaxShapeAttribute))) {
    throw Error("input 'depth' must be at least 1, got " + std::to_string(depth));
  }
  return {node.builder().Call("one_hot", {node.Input(0, "indices"), node.Input(2, "values")},
                              {{"depth", static_cast<int64_t>(depth)}, {"axis", node.Int("axis", -1)}})};
}

// TopK: k from the attribute (opset < 10) or the input; `sorted` = 0 allows any order, which
// the sorted result satisfies.
std::vector<Expr> ConvertTopK(OnnxNode& node) {
  const int64_t k = node.HasAttr("k") ? node.Int("k", 0) : node.IntScalarInput(1, "K");
  Expr pair = node.builder().Call(
      "topk", {node.Input(0, "X")},
      {{"k", k}, {"axis", node.Int("axis", -1)}, {"largest", node.Int("largest", 1)}});
  return {node.builder().TupleItem(pair, 0), node.builder().TupleItem(pair, 1)};
}

std::vector<Expr> ConvertCumSum(OnnxNode& node) {
  return {node.builder().Call("cumsum", {node.Input(0, "x")},
                              {{"axis", node.IntScalarInput(1, "axis")},
                               {"exclusive", node.Int("exclusive", 0)},
                               {"reverse", node.Int("reverse", 0)}})};
}

std::vector<Expr> ConvertTrilu(OnnxNode& node) {
  const int64_t k = node.HasInput(1) ? node.IntScalarInput(1, "k") : 0;
  return {node.builder().Call("trilu", {node.Input(0, "input")}, {{"upper", node.Int("upper", 1)}, {"k", k}})};
}

// 1 at the first maximum along the axis, 0 elsewhere: one_hot(argmax). Before opset 13 the
// input is seen as 2-D, [dimensions before axis, the rest], and the row is the axis.
std::vector<Expr> ConvertHardmax(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = node.Input(0, "input");
  const Shape& shape = node.InputShape(0);
  const DType dtype = TensorTypeOf(data).dtype;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const bool coerced = node.opset() < 13;
  const int64_t axis = NormalizeAxis(node.Int("axis", coerced ? 1 : -1), rank, "attribute 'axis'");
  Expr rows = data;
  int64_t row_axis = axis;
  if (coerced) {
    const int64_t outer = NumElements(Shape(shape.begin(), shape.begin() + axis));
    rows = builder.Call("reshape", {data}, {{"newshape", std::vector<int64_t>{outer, -1}}});
    row_axis = 1;
  }
  const int64_t depth = TensorTypeOf(rows).shape[static_cast<size_t>(row_axis)];
  Expr indices = builder.Call("argmax", {rows}, {{"axis", row_axis}, {"keepdims", int64_t{0}}});
  Tensor values = Tensor::Zeros(dtype, {2});
  values.SetFromDouble(1, 1.0);
  Expr result = builder.Call("one_hot", {indices, builder.Constant(std::move(values))},
                             {{"depth", depth}, {"axis", row_axis}});
  if (coerced) result = builder.Call("reshape", {result}, {{"newshape", std::vector<int64_t>(shape)}});
  return {result};
}

// The block size of DepthToSpace / SpaceToDepth on 4-D input.
int64_t BlockSize(const OnnxNode& node) {
  const int64_t block = node.RequiredInt("blocksize");
  if (block < 1 || block > kMaxShapeAttribute) throw Error("attribute 'blocksize' must be at least 1");
  if (node.InputRank(0) != 4) throw Error("input must be 4-D (NCHW), got " + ShapeToString(node.InputShape(0)));
  return block;
}

Expr ReshapeTransposeReshape(FoldingBuilder& builder, const Expr& data, const std::vector<int64_t>& split,
                             const std::vector<int64_t>& permutation, const std::vector<int64_t>& merged) {
  Expr expanded = builder.Call("reshape", {data}, {{"newshape", split}});
  Expr moved = builder.Call("transpose", {expanded}, {{"axes", permutation}});
  return builder.Call("reshape", {moved}, {{"newshape", merged}});
}

// Moves channel blocks into b x b spatial blocks: mode DCR takes the block position from the
// leading channel bits, CRD from the trailing ones.
std::vector<Expr> ConvertDepthToSpace(OnnxNode& node) {
  const int64_t b = BlockSize(node);
  const Shape& s = node.InputShape(0);
  if (s[1] % (b * b) != 0) {
    throw Error("channels " + std::to_string(s[1]) + " are not a multiple of blocksize^2 = " + std::to_string(b * b));
  }
  const int64_t c = s[1] / (b * b);
  const std::string mode = node.String("mode", "DCR");
  const std::vector<int64_t> merged = {s[0], c, s[2] * b, s[3] * b};
  if (mode == "DCR") {
    return {ReshapeTransposeReshape(node.builder(), node.Input(0, "input"), {s[0], b, b, c, s[2], s[3]},
                                    {0, 3, 4, 1, 5, 2}, merged)};
  }
  if (mode == "CRD") {
    return {ReshapeTransposeReshape(node.builder(), node.Input(0, "input"), {s[0], c, b, b, s[2], s[3]},
                                    {0, 1, 4, 2, 5, 3}, merged)};
  }
  throw Error("attribute 'mode' must be DCR or CRD, got '" + mode + "'");
}

std::vector<Expr> ConvertSpaceToDepth(OnnxNode& node) {
  const int64_t b = BlockSize(node);
  const Shape& s = node.InputShape(0);
  if (s[2] % b != 0 || s[3] % b != 0) {
    throw Error("spatial extent " + ShapeToString(s) + " is not a multiple of blocksize " + std::to_string(b));
  }
  return {ReshapeTransposeReshape(node.builder(), node.Input(0, "input"), {s[0], s[1], s[2] / b, b, s[3] / b, b},
                                  {0, 3, 5, 1, 2, 4}, {s[0], s[1] * b * b, s[2] / b, s[3] / b})};
}

std::vector<Expr> ConvertEinsum(OnnxNode& node) {
  std::vector<Expr> operands;
  for (size_t i = 0; i < node.num_inputs(); ++i) operands.push_back(node.Input(i, "Inputs"));
  if (operands.empty()) throw Error("needs at least one input");
  return {node.builder().Call("einsum", std::move(operands), {{"equation", node.String("equation", "")}})};
}

std::vector<Expr> ConvertReverseSequence(OnnxNode& node) {
  const Expr& data = node.Input(0, "input");
  const Shape& shape = node.InputShape(0);
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t time_axis = NormalizeAxis(node.Int("time_axis", 0), rank, "attribute 'time_axis'");
  const int64_t batch_axis = NormalizeAxis(node.Int("batch_axis", 1), rank, "attribute 'batch_axis'");
  if (rank < 2 || time_axis == batch_axis) throw Error("time_axis and batch_axis must be two different axes");
  const std::vector<int64_t> lengths = SequenceLengthsInput(node, 1, shape[static_cast<size_t>(batch_axis)],
                                                           shape[static_cast<size_t>(time_axis)]);
  Tensor indices = Tensor::Zeros(DType::kI64, shape);
  for (int64_t flat = 0; flat < indices.NumElements(); ++flat) {
    const std::vector<int64_t> index = UnravelIndex(flat, shape);
    const int64_t t = index[static_cast<size_t>(time_axis)];
    const int64_t length = lengths[static_cast<size_t>(index[static_cast<size_t>(batch_axis)])];
    indices.data<int64_t>()[flat] = t < length ? length - 1 - t : t;
  }
  return {node.builder().Call("gather_elements", {data, node.builder().Constant(std::move(indices))},
                              {{"axis", time_axis}})};
}

}  // namespace

void RegisterIndexingConverters(OnnxConverterTable& table) {
  table.Add("ReverseSequence", ConvertReverseSequence);
  table.Add("GatherElements", ConvertGatherElements);
  table.Add("ScatterElements", ConvertScatterElements);
  table.Add("Scatter", ConvertScatterElements);
  table.Add("GatherND", ConvertGatherND);
  table.Add("ScatterND", ConvertScatterND);
  table.Add("OneHot", ConvertOneHot);
  table.Add("TopK", ConvertTopK);
  table.Add("CumSum", ConvertCumSum);
  table.Add("Trilu", ConvertTrilu);
  table.Add("Hardmax", ConvertHardmax);
  table.Add("DepthToSpace", ConvertDepthToSpace);
  table.Add("SpaceToDepth", ConvertSpaceToDepth);
  table.Add("Einsum", ConvertEinsum);
}

}  // namespace collage
