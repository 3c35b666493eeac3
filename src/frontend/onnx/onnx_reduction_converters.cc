// ONNX reductions: ReduceSum/Mean/Max/Min/Prod (axes as an attribute, or as an input for
// ReduceSum from opset 13 and for all of them from opset 18), ReduceL2, ArgMax and ArgMin.
#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"

namespace collage {
namespace {

// The reduced axes; nullopt means "none": the op is the identity (noop_with_empty_axes).
std::optional<std::vector<int64_t>> ReducedAxes(const OnnxNode& node) {
  std::optional<std::vector<int64_t>> axes = node.IntsFromAttrOrInput("axes", 1);
  if (axes && !axes->empty()) return axes;
  if (node.Int("noop_with_empty_axes", 0) != 0) return std::nullopt;
  return std::vector<int64_t>{};  // all axes
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

OnnxConverter ArgReduction(const std::string& op_name) {
  return [op_name](OnnxNode& node) -> std::vector<Expr> {
    if (node.Int("select_last_index", 0) != 0) throw Error("select_last_index = 1 is not supported");
    return {node.builder().Call(op_name, {node.Input(0, "data")},
                                {{"axis", node.Int("axis", 0)}, {"keepdims", node.Int("keepdims", 1)}})};
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
  table.Add("ArgMax", ArgReduction("argmax"));
  table.Add("ArgMin", ArgReduction("argmin"));
}

}  // namespace collage
