// ONNX reductions: ReduceSum/Mean/Max/Min/Prod (axes as an attribute, or as an input for
// ReduceSum from opset 13 and for all of them from opset 18), ReduceL1/L2, ReduceSumSquare,
// ReduceLogSum(Exp), ArgMax and ArgMin.
#include <limits>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "support/shape.h"

namespace collage {
namespace {

// The reduced axes; nullopt means "none": the op is the identity (noop_with_empty_axes).
std::optional<std::vector<int64_t>> ReducedAxes(const OnnxNode& node) {
  std::optional<std::vector<int64_t>> axes = node.IntsFromAttrOrInput("axes", 1);
  if (axes && !axes->empty()) return axes;
  if (node.Int("noop_with_empty_axes", 0) != 0) return std::nullopt;
  return std::vector<int64_t>{};  // all axes
}

// The axes a reduction with `axes` reduces in data of `rank` (all for an empty list).
std::vector<int64_t> ReducedAxesOfRank(const std::vector<int64_t>& axes, int64_t rank) {
  if (!axes.empty()) return axes;
  std::vector<int64_t> all;
  for (int64_t axis = 0; axis < rank; ++axis) all.push_back(axis);
  return all;
}

Expr Reduce(OnnxNode& node, const std::string& op_name, const Expr& data) {
  std::optional<std::vector<int64_t>> axes = ReducedAxes(node);
  if (!axes) return data;
  return node.builder().Call(op_name, {data}, {{"axis", *axes}, {"keepdims", node.Int("keepdims", 1)}});
}

OnnxConverter Reduction(const std::string& op_name) {
  return [op_name](OnnxNode& node) -> std::vector<Expr> { return {Reduce(node, op_name, node.Input(0, "data"))}; };
}

// sqrt(sum(x * x)).
std::vector<Expr> ConvertReduceL2(OnnxNode& node) {
  const Expr& data = node.Input(0, "data");
  Expr squares = node.builder().Call("multiply", {data, data});
  return {node.builder().Call("sqrt", {Reduce(node, "sum", squares)})};
}

// sum(|x|).
std::vector<Expr> ConvertReduceL1(OnnxNode& node) {
  return {Reduce(node, "sum", node.builder().Call("abs", {node.Input(0, "data")}))};
}

// sum(x * x).
std::vector<Expr> ConvertReduceSumSquare(OnnxNode& node) {
  const Expr& data = node.Input(0, "data");
  return {Reduce(node, "sum", node.builder().Call("multiply", {data, data}))};
}

// log(sum(x)).
std::vector<Expr> ConvertReduceLogSum(OnnxNode& node) {
  return {node.builder().Call("log", {Reduce(node, "sum", node.Input(0, "data"))})};
}

// log(sum(exp(x))), computed as m + log(sum(exp(x - m))) with m the maximum over the same
// axes, so large inputs do not overflow.
std::vector<Expr> ConvertReduceLogSumExp(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& data = node.Input(0, "data");
  std::optional<std::vector<int64_t>> axes = ReducedAxes(node);
  if (!axes) return {data};
  Expr kept_max = builder.Call("max", {data}, {{"axis", *axes}, {"keepdims", int64_t{1}}});
  Expr shifted = builder.Call("exp", {builder.Call("subtract", {data, kept_max})});
  Expr kept_sum = builder.Call("sum", {shifted}, {{"axis", *axes}, {"keepdims", int64_t{1}}});
  Expr result = builder.Call("add", {builder.Call("log", {kept_sum}), kept_max});
  if (node.Int("keepdims", 1) != 0) return {result};
  return {builder.Call("squeeze", {result}, {{"axes", ReducedAxesOfRank(*axes, node.InputRank(0))}})};
}

// The op returns the first extremum; select_last_index = 1 asks for the last one, which is
// the first one of the data reversed along the axis, counted from the end.
OnnxConverter ArgReduction(const std::string& op_name) {
  return [op_name](OnnxNode& node) -> std::vector<Expr> {
    FoldingBuilder& builder = node.builder();
    const Expr& data = node.Input(0, "data");
    const int64_t axis = node.Int("axis", 0);
    const Attrs attrs = {{"axis", axis}, {"keepdims", node.Int("keepdims", 1)}};
    if (node.Int("select_last_index", 0) == 0) return {builder.Call(op_name, {data}, attrs)};
    const int64_t extent = node.InputShape(0)[static_cast<size_t>(NormalizeAxis(axis, node.InputRank(0), "axis"))];
    Expr reversed = builder.Call("strided_slice", {data},
                                 {{"begin", std::vector<int64_t>{-1}},
                                  {"end", std::vector<int64_t>{std::numeric_limits<int64_t>::min()}},
                                  {"strides", std::vector<int64_t>{-1}},
                                  {"axes", std::vector<int64_t>{axis}}});
    Expr from_end = builder.Call(op_name, {reversed}, attrs);
    return {builder.Call("subtract", {ScalarConstant(builder, static_cast<double>(extent - 1), DType::kI64), from_end})};
  };
}

}  // namespace

void RegisterReductionConverters(OnnxConverterTable& table) {
  table.Add("ReduceSum", Reduction("sum"));
  table.Add("ReduceMean", Reduction("mean"));
  table.Add("ReduceMax", Reduction("max"));
  table.Add("ReduceMin", Reduction("min"));
  table.Add("ReduceProd", Reduction("prod"));
  table.Add("ReduceL2", ConvertReduceL2);
  table.Add("ReduceL1", ConvertReduceL1);
  table.Add("ReduceSumSquare", ConvertReduceSumSquare);
  table.Add("ReduceLogSum", ConvertReduceLogSum);
  table.Add("ReduceLogSumExp", ConvertReduceLogSumExp);
  table.Add("ArgMax", ArgReduction("argmax"));
  table.Add("ArgMin", ArgReduction("argmin"));
}

}  // namespace collage
