// ONNX's loss functions, for models that compute a loss in inference (evaluation graphs):
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, written with gather_elements, take,
// where and reductions. Inputs are [N, C] or [N, C, d1, ...]; targets [N] or [N, d1, ...].
#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"

namespace collage {
namespace {

// -input[n, target[n, ...], ...] * weight[target], 0 where target == ignore_index, reduced
// by `reduction`: "none" keeps the per-element losses, "sum" adds them, "mean" divides the
// sum by the sum of the weights taken (so ignored elements count for nothing).
Expr NegativeLogLikelihood(OnnxNode& node, const Expr& input, const Expr& target, size_t weight_index) {
  FoldingBuilder& builder = node.builder();
  const DType dtype = TensorTypeOf(input).dtype;
  const DType target_dtype = TensorTypeOf(target).dtype;
  if (!IsFloatingPoint(dtype)) throw Error("the scores must be floating point, got " + std::string(DTypeName(dtype)));
  if (TensorTypeOf(input).shape.size() < 2) throw Error("the scores must have rank >= 2 ([N, C, ...])");
  const std::string reduction = node.String("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    throw Error("attribute 'reduction' must be none, sum or mean, got '" + reduction + "'");
  }
  Expr safe_target = target;
  Expr kept;  // bool, where the target is not ignored; null when nothing is ignored
  if (node.HasAttr("ignore_index")) {
    Expr ignored = builder.Call("equal", {target, ScalarConstant(builder, static_cast<double>(node.Int("ignore_index", 0)),
                                                                 target_dtype)});
    safe_target = builder.Call("where", {ignored, ScalarConstant(builder, 0.0, target_dtype), target});
    kept = builder.Call("logical_not", {ignored});
  }
  Expr picked = builder.Call("gather_elements",
                             {input, builder.Call("expand_dims", {safe_target}, {{"axes", std::vector<int64_t>{1}}})},
                             {{"axis", int64_t{1}}});
  picked = builder.Call("squeeze", {picked}, {{"axes", std::vector<int64_t>{1}}});
  Expr weights;  // per element; null when all are 1
  if (node.HasInput(weight_index)) weights = builder.Call("take", {node.Input(weight_index, "weight"), safe_target});
  if (kept != nullptr) {
    Expr zero_or_one = CastTo(builder, kept, dtype);
    weights = weights == nullptr ? zero_or_one : builder.Call("multiply", {weights, zero_or_one});
  }
  Expr loss = builder.Call("negative", {picked});
  if (weights != nullptr) loss = builder.Call("multiply", {loss, weights});
  if (reduction == "none") return loss;
  const Attrs all = {{"axis", std::vector<int64_t>{}}, {"keepdims", int64_t{0}}};
  Expr total = builder.Call("sum", {loss}, all);
  if (reduction == "sum") return total;
  if (weights == nullptr) return builder.Call("mean", {loss}, all);
  return builder.Call("divide", {total, builder.Call("sum", {weights}, all)});
}

std::vector<Expr> ConvertNegativeLogLikelihoodLoss(OnnxNode& node) {
  return {NegativeLogLikelihood(node, node.Input(0, "input"), node.Input(1, "target"), 2)};
}

// The loss of log_softmax(scores) over the class axis, and optionally that log-probability.
std::vector<Expr> ConvertSoftmaxCrossEntropyLoss(OnnxNode& node) {
  const Expr& scores = node.Input(0, "scores");
  if (TensorTypeOf(scores).shape.size() < 2) throw Error("the scores must have rank >= 2 ([N, C, ...])");
  Expr log_probability = node.builder().Call("nn.log_softmax", {scores}, {{"axis", int64_t{1}}});
  return {NegativeLogLikelihood(node, log_probability, node.Input(1, "labels"), 2), log_probability};
}

}  // namespace

void RegisterLossConverters(OnnxConverterTable& table) {
  table.Add("NegativeLogLikelihoodLoss", ConvertNegativeLogLikelihoodLoss);
  table.Add("SoftmaxCrossEntropyLoss", ConvertSoftmaxCrossEntropyLoss);
}

}  // namespace collage
