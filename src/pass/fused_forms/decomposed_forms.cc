#include "pass/fused_forms/decomposed_forms.h"

#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <optional>

#include "ir/expr.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "pass/inline_composites.h"
#include "pattern/pattern_parser.h"
#include "pattern/tied_bindings.h"
#include "support/error.h"

namespace collage {
namespace {

// A layer norm over the last axis of `$<input>`; sub-patterns are prefixed with `<prefix>_`
// so that a form can normalize another form's result.
std::string LayerNormText(const std::string& input, const std::string& prefix) {
  const std::string x = "$" + input;
  const std::string p = "$" + prefix + "_";
  return p + "epsilon := const\n" + p + "gamma := const\n" + p + "beta := const\n" + p + "centered := subtract(" + x +
         ", mean(" + x + "))\n" + p + "variance := mean(power(" + p + "centered, $two) | multiply(" + p +
         "centered, " + p + "centered))\n" + p + "normalized := (divide(" + p + "centered, sqrt(add(" + p +
         "variance, " + p + "epsilon))) |\n  multiply(" + p + "centered, rsqrt(add(" + p + "variance, " + p +
         "epsilon))))\n" + p + "scaled := multiply(" + p + "normalized, " + p + "gamma) | multiply(" + p + "gamma, " +
         p + "normalized)\n" + p + "affine_input := " + p + "scaled | " + p + "normalized\n" + p + "form := (add(" +
         p + "affine_input, " + p + "beta) | add(" + p + "beta, " + p + "affine_input) | " + p + "affine_input)\n";
}

// Named constants: a binding of one of these sub-patterns must hold only this value.
const std::map<std::string, double>& ConstantValues() {
  static const std::map<std::string, double> values = {
      {"one", 1.0},
      {"two", 2.0},
      {"three", 3.0},
      {"six", 6.0},
      {"half", 0.5},
      {"one_sixth", 1.0 / 6.0},
      {"sqrt_two", std::numbers::sqrt2},
      {"inverse_sqrt_two", 1.0 / std::numbers::sqrt2},
      {"sqrt_two_over_pi", std::sqrt(2.0 / std::numbers::pi)},
      {"gelu_cubic", 0.044715},
  };
  return values;
}

std::string FormTable() {
  std::string text = R"(
$one := const
$two := const
$three := const
$six := const
$half := const
$one_sixth := const
$sqrt_two := const
$inverse_sqrt_two := const
$sqrt_two_over_pi := const
$gelu_cubic := const

$ln_x := *
)";
  text += LayerNormText("ln_x", "ln");
  text += R"(
layer_norm := $ln_form

$rms_x := *
$rms_epsilon := const
$rms_gamma := const
$rms_mean_square := mean(power($rms_x, $two) | multiply($rms_x, $rms_x))
$rms_root := sqrt(add($rms_mean_square, $rms_epsilon))
$rms_normalized := (divide($rms_x, $rms_root) | multiply($rms_x, rsqrt(add($rms_mean_square, $rms_epsilon))) |
                    multiply($rms_x, divide($one, $rms_root)))
rms_norm := multiply($rms_normalized, $rms_gamma) | multiply($rms_gamma, $rms_normalized) | $rms_normalized

$gelu_x := *
$gelu_half_x := multiply($gelu_x, $half) | multiply($half, $gelu_x)
$gelu_erf := erf(divide($gelu_x, $sqrt_two) | multiply($gelu_x, $inverse_sqrt_two))
$gelu_erf_sum := add($gelu_erf, $one) | add($one, $gelu_erf)
$gelu_erf_product := multiply($gelu_x, $gelu_erf_sum) | multiply($gelu_erf_sum, $gelu_x)
gelu_erf := (multiply($gelu_erf_product, $half) | multiply($half, $gelu_erf_product) |
             multiply($gelu_half_x, $gelu_erf_sum) | multiply($gelu_erf_sum, $gelu_half_x))

$gelu_square := multiply($gelu_x, $gelu_x)
$gelu_cube := multiply($gelu_x, $gelu_square) | multiply($gelu_square, $gelu_x) | power($gelu_x, $three)
$gelu_cubic_term := multiply($gelu_cubic, $gelu_cube) | multiply($gelu_cube, $gelu_cubic)
$gelu_inner := add($gelu_x, $gelu_cubic_term) | add($gelu_cubic_term, $gelu_x)
$gelu_tanh := tanh(multiply($sqrt_two_over_pi, $gelu_inner) | multiply($gelu_inner, $sqrt_two_over_pi))
$gelu_tanh_sum := add($one, $gelu_tanh) | add($gelu_tanh, $one)
$gelu_tanh_product := multiply($gelu_x, $gelu_tanh_sum) | multiply($gelu_tanh_sum, $gelu_x)
gelu_tanh := (multiply($half, $gelu_tanh_product) | multiply($gelu_tanh_product, $half) |
              multiply($gelu_half_x, $gelu_tanh_sum) | multiply($gelu_tanh_sum, $gelu_half_x))

$silu_x := *
silu := multiply($silu_x, sigmoid($silu_x)) | multiply(sigmoid($silu_x), $silu_x)

$hs_x := *
$hs_slope := const
$hs_offset := const
$hs_linear := add(multiply($hs_x, $hs_slope) | multiply($hs_slope, $hs_x), $hs_offset)
$hs_relu6 := clip{a_min=0.0, a_max=6.0}(add($hs_x, $three))
$hard_sigmoid := (clip{a_min=0.0, a_max=1.0}($hs_linear) | divide($hs_relu6, $six) |
                  multiply($hs_relu6, $one_sixth))
hard_sigmoid := $hard_sigmoid
hard_swish := multiply($hs_x, $hard_sigmoid) | multiply($hard_sigmoid, $hs_x)

$sm_scores := *
$sm_scale := const
$sm_mask := *
$sm_scaled := multiply($sm_scores, $sm_scale) | multiply($sm_scale, $sm_scores) | divide($sm_scores, $sm_scale)
$sm_logits := $sm_scaled | $sm_scores
$sm_masked := add($sm_logits, $sm_mask) | add($sm_mask, $sm_logits) | where(*, const, $sm_logits)
scaled_masked_softmax := nn.softmax($sm_masked | $sm_scaled)

$attn_heads := transpose(reshape(*))
$attn_scale := const
$attn_query := $attn_heads | multiply($attn_heads, $attn_scale) | divide($attn_heads, $attn_scale)
$attn_scores := nn.matmul($attn_query, $attn_heads)
$attn_logits := $attn_scores | multiply($attn_scores, $attn_scale) | divide($attn_scores, $attn_scale)
$attn_masked := $attn_logits | add($attn_logits, *) | add(*, $attn_logits) | where(*, const, $attn_logits)
scaled_dot_product_attention := reshape(transpose(nn.matmul(nn.softmax($attn_masked), $attn_heads)))

$brn_product := nn.dense(*, const) | nn.matmul(*, const)
$brn_biased := add($brn_product, const) | add(const, $brn_product) | nn.bias_add($brn_product, const)
$brn_sum := add($brn_biased, *) | add(*, $brn_biased)
)";
  text += LayerNormText("brn_sum", "brn");
  text += R"(
bias_residual_layer_norm := $brn_form | nn.layer_norm($brn_sum, const, const)

$se_x := *
$se_pooled := nn.global_avg_pool2d($se_x) | mean($se_x)
$se_reduce := nn.bias_add(nn.conv2d($se_pooled, const), const) | add(nn.conv2d($se_pooled, const), const)
$se_activated := nn.relu($se_reduce) | multiply($se_reduce, sigmoid($se_reduce)) | multiply(sigmoid($se_reduce), $se_reduce)
$se_expand := nn.bias_add(nn.conv2d($se_activated, const), const) | add(nn.conv2d($se_activated, const), const)
$se_gate := sigmoid($se_expand) | clip{a_min=0.0, a_max=1.0}(add(multiply($se_expand, const), const))
squeeze_excitation := multiply($se_gate, $se_x) | multiply($se_x, $se_gate)
)";
  return text;
}

// Reads a match through the table's sub-pattern names.
class Bindings {
 public:
  Bindings(const PatternMatch& match, const std::map<std::string, Pattern>& sub_patterns)
      : match_(match), sub_patterns_(sub_patterns) {}
  Expr Get(const std::string& name) const { return match_.Get(sub_patterns_.at(name)); }
  std::vector<Expr> GetAll(const std::string& name) const { return match_.GetAll(sub_patterns_.at(name)); }
  const PatternMatch& match() const { return match_; }

 private:
  const PatternMatch& match_;
  const std::map<std::string, Pattern>& sub_patterns_;
};

const Tensor* ConstantTensor(const Expr& expr) {
  const auto* constant = As<ConstantNode>(expr);
  return constant != nullptr ? &constant->data : nullptr;
}

// The value of a constant holding one value (any shape of one element), else nullopt.
std::optional<double> ScalarValue(const Expr& expr) {
  const Tensor* tensor = ConstantTensor(expr);
  if (tensor == nullptr || tensor->NumElements() != 1) return std::nullopt;
  return tensor->GetAsDouble(0);
}

bool EveryBindingIsScalar(const Bindings& bindings, const std::string& name) {
  for (const Expr& expr : bindings.GetAll(name)) {
    if (!ScalarValue(expr)) return false;
  }
  return true;
}

bool ConstantsHaveTheirValues(const Bindings& bindings) {
  for (const auto& [name, expected] : ConstantValues()) {
    for (const Expr& expr : bindings.GetAll(name)) {
      const Tensor* tensor = ConstantTensor(expr);
      if (tensor == nullptr) return false;
      for (int64_t i = 0; i < tensor->NumElements(); ++i) {
        if (std::fabs(tensor->GetAsDouble(i) - expected) > 1e-5 * std::fabs(expected)) return false;
      }
    }
  }
  return true;
}

const TensorTypeNode* TensorTypeOfExpr(const Expr& expr) { return expr ? AsTensorType(expr->checked_type()) : nullptr; }

int64_t NormalizedAxis(int64_t axis, size_t rank) { return axis < 0 ? axis + static_cast<int64_t>(rank) : axis; }

// Every call of `op` inside the match reduces exactly `axes` (normalized) and keeps them.
bool InsideCallsReduce(const PatternMatch& match, const std::string& op, const std::vector<int64_t>& axes) {
  for (const Expr& expr : match.inside) {
    const auto* call = As<CallNode>(expr);
    const auto* callee = call != nullptr ? As<OpNode>(call->callee) : nullptr;
    if (callee == nullptr || callee->name() != op) continue;
    const TensorTypeNode* input = TensorTypeOfExpr(call->args[0]);
    if (input == nullptr || !call->attrs.Has("axis") || call->attrs.GetInt("keepdims") != 1) return false;
    std::vector<int64_t> reduced;
    for (int64_t axis : call->attrs.GetInts("axis")) reduced.push_back(NormalizedAxis(axis, input->shape.size()));
    std::vector<int64_t> expected;
    for (int64_t axis : axes) expected.push_back(NormalizedAxis(axis, input->shape.size()));
    if (reduced != expected) return false;
  }
  return true;
}

// Every softmax inside the match normalizes the last axis.
bool SoftmaxesOnLastAxis(const PatternMatch& match) {
  for (const Expr& expr : match.inside) {
    const auto* call = As<CallNode>(expr);
    const auto* callee = call != nullptr ? As<OpNode>(call->callee) : nullptr;
    if (callee == nullptr || callee->name() != "nn.softmax") continue;
    const TensorTypeNode* type = TensorTypeOfExpr(expr);
    if (type == nullptr || NormalizedAxis(call->attrs.GetInt("axis"), type->shape.size()) + 1 !=
                               static_cast<int64_t>(type->shape.size())) {
      return false;
    }
  }
  return true;
}

// A per-channel constant for a layer norm over `channels`: shape (..., 1, channels).
bool IsChannelVector(const Expr& expr, int64_t channels) {
  const Tensor* tensor = ConstantTensor(expr);
  if (tensor == nullptr || tensor->NumElements() != channels || tensor->rank() == 0) return false;
  return tensor->shape().back() == channels;
}

// The layer norm named by `prefix` normalizes `input`'s last axis, in f32.
bool IsLayerNorm(const Bindings& bindings, const std::string& input, const std::string& prefix) {
  const TensorTypeNode* type = TensorTypeOfExpr(bindings.Get(input));
  if (type == nullptr || type->dtype != DType::kF32 || type->shape.empty()) return false;
  if (!InsideCallsReduce(bindings.match(), "mean", {-1})) return false;
  const std::optional<double> epsilon = ScalarValue(bindings.Get(prefix + "_epsilon"));
  if (!epsilon || *epsilon < 0) return false;
  const int64_t channels = type->shape.back();
  for (const char* name : {"_gamma", "_beta"}) {
    const Expr bound = bindings.Get(prefix + name);
    if (bound && !IsChannelVector(bound, channels)) return false;
  }
  return true;
}

Expr ChannelVector(const Expr& bound, int64_t channels, double fill) {
  Tensor vector = Tensor::Zeros(DType::kF32, {channels});
  for (int64_t i = 0; i < channels; ++i) vector.SetFromDouble(i, bound ? ConstantTensor(bound)->GetAsDouble(i) : fill);
  return MakeConstant(std::move(vector));
}

// `op`(x, its per-channel vectors...) over the last axis of the form's x with its epsilon; the
// sub-patterns are <prefix>_x, <prefix>_epsilon and <prefix>_<vector>, an absent vector filled.
Expr FuseLastAxisNorm(const Bindings& bindings, const std::string& op, const std::string& prefix,
                      const std::vector<std::pair<std::string, double>>& vectors) {
  const Expr x = bindings.Get(prefix + "_x");
  const int64_t channels = TensorTypeOfExpr(x)->shape.back();
  Attrs attrs;
  attrs.Set("axis", int64_t{-1});
  attrs.Set("epsilon", *ScalarValue(bindings.Get(prefix + "_epsilon")));
  std::vector<Expr> args = {x};
  for (const auto& [name, fill] : vectors) {
    args.push_back(ChannelVector(bindings.Get(prefix + "_" + name), channels, fill));
  }
  return CallOp(op, args, attrs);
}

bool IsF32(const Expr& expr) {
  const TensorTypeNode* type = TensorTypeOfExpr(expr);
  return type != nullptr && type->dtype == DType::kF32;
}

Expr UnaryCall(const std::string& op, const Expr& x, Attrs attrs = {}) { return CallOp(op, {x}, attrs); }

// Logits as the forms write them: `values` multiplied or divided by a scalar constant, or not.
struct ScaledValues {
  Expr values;
  double scale = 1.0;
};

// Peels a multiplication or division by a scalar constant inside the match off `expr`.
ScaledValues PeelScale(const Expr& expr, const PatternMatch& match) {
  if (!match.IsInside(expr)) return {expr, 1.0};
  for (const char* op : {"multiply", "divide"}) {
    const CallNode* call = AsCallOf(expr, op);
    if (call == nullptr) continue;
    for (size_t side = 0; side < 2; ++side) {
      const std::optional<double> constant = ScalarValue(call->args[side]);
      if (!constant || (side == 0 && std::string(op) == "divide")) continue;
      return {call->args[1 - side], std::string(op) == "divide" ? 1.0 / *constant : *constant};
    }
  }
  return {expr, 1.0};
}

// The input of a softmax, as the forms write it: logits, plus an additive mask, or with a
// scalar where a select mask holds (where(mask, masked_value, logits)).
struct MaskedLogits {
  Expr logits;
  Expr mask;  // null: none
  double masked_value = 0.0;
};

// `expr` is one of the form's logits (a product or a scaled product, inside the match).
bool IsFormLogits(const Expr& expr, const PatternMatch& match) {
  return match.IsInside(expr) &&
         (AsCallOf(expr, "multiply") || AsCallOf(expr, "divide") || AsCallOf(expr, "nn.matmul"));
}

std::optional<MaskedLogits> PeelMask(const Expr& expr, const PatternMatch& match) {
  if (!match.IsInside(expr)) return MaskedLogits{expr, nullptr};
  if (const CallNode* add = AsCallOf(expr, "add")) {
    const bool second_is_logits = IsFormLogits(add->args[1], match) && !IsFormLogits(add->args[0], match);
    return MaskedLogits{add->args[second_is_logits ? 1 : 0], add->args[second_is_logits ? 0 : 1]};
  }
  if (const CallNode* where = AsCallOf(expr, "where")) {
    const std::optional<double> fill = ScalarValue(where->args[1]);
    const TensorTypeNode* condition = TensorTypeOfExpr(where->args[0]);
    if (!fill || condition == nullptr || condition->dtype != DType::kBool) return std::nullopt;
    return MaskedLogits{where->args[2], where->args[0], *fill};
  }
  return MaskedLogits{expr, nullptr};
}

// `call`, type-checked, when its operands (typed, or constants made for it) make it well typed;
// nullptr otherwise.
Expr TypeChecked(Expr call) {
  try {
    for (const Expr& arg : As<CallNode>(call)->args) {
      if (As<ConstantNode>(arg) != nullptr && !arg->checked_type()) InferNodeType(arg);
    }
    InferNodeType(call);
  } catch (const TypeError&) {
    return nullptr;
  }
  return call;
}

Attrs MaskAttrs(double scale, const MaskedLogits& masked) {
  Attrs attrs;
  attrs.Set("scale", scale);
  attrs.Set("masked_value", masked.masked_value);
  return attrs;
}

Expr FuseMaskedSoftmax(const Bindings& bindings) {
  const PatternMatch& match = bindings.match();
  const std::optional<MaskedLogits> masked = PeelMask(As<CallNode>(match.root)->args[0], match);
  if (!masked) return nullptr;
  const ScaledValues scaled = PeelScale(masked->logits, match);
  std::vector<Expr> args = {scaled.values};
  if (masked->mask) args.push_back(masked->mask);
  const Expr fused = TypeChecked(CallOp("nn.masked_softmax", args, MaskAttrs(scaled.scale, *masked)));
  return fused && TypeEqual(fused->checked_type(), match.root->checked_type()) ? fused : nullptr;
}

// The operand of a head split (transpose(reshape(x))), the reshape's shape and the axes.
struct HeadsOperand {
  Expr operand;
  std::vector<int64_t> shape;
  std::vector<int64_t> axes;
};

std::optional<HeadsOperand> HeadsOf(const Expr& expr) {
  const CallNode* transpose = AsCallOf(expr, "transpose");
  const CallNode* reshape = transpose != nullptr ? AsCallOf(transpose->args[0], "reshape") : nullptr;
  const TensorTypeNode* viewed = reshape != nullptr ? TensorTypeOfExpr(transpose->args[0]) : nullptr;
  if (viewed == nullptr || !transpose->attrs.Has("axes")) return std::nullopt;
  return HeadsOperand{reshape->args[0], viewed->shape, transpose->attrs.GetInts("axes")};
}

// reshape(transpose(matmul(softmax(masked logits of matmul(query heads, key heads)), value heads)))
// as nn.attention(query, key, value[, mask]), the head splits' reshapes and transposes and the
// merge folded into the op's views.
Expr FuseAttention(const Bindings& bindings) {
  const PatternMatch& match = bindings.match();
  const auto* merge = As<CallNode>(match.root);
  const CallNode* output = AsCallOf(merge->args[0], "transpose");
  const CallNode* weighted = output != nullptr ? AsCallOf(output->args[0], "nn.matmul") : nullptr;
  const CallNode* softmax = weighted != nullptr ? AsCallOf(weighted->args[0], "nn.softmax") : nullptr;
  if (softmax == nullptr || !output->attrs.Has("axes")) return nullptr;
  const std::optional<MaskedLogits> masked = PeelMask(softmax->args[0], match);
  if (!masked) return nullptr;
  const ScaledValues scores = PeelScale(masked->logits, match);
  const CallNode* product = AsCallOf(scores.values, "nn.matmul");
  if (product == nullptr) return nullptr;
  const ScaledValues query_heads = PeelScale(product->args[0], match);
  const std::optional<HeadsOperand> query = HeadsOf(query_heads.values);
  const std::optional<HeadsOperand> key = HeadsOf(product->args[1]);
  const std::optional<HeadsOperand> value = HeadsOf(weighted->args[1]);
  if (!query || !key || !value) return nullptr;
  Attrs attrs = MaskAttrs(scores.scale * query_heads.scale, *masked);
  for (const auto& [name, heads] : {std::pair{"query", *query}, std::pair{"key", *key}, std::pair{"value", *value}}) {
    attrs.Set(std::string(name) + "_shape", heads.shape);
    attrs.Set(std::string(name) + "_axes", heads.axes);
  }
  attrs.Set("output_axes", output->attrs.GetInts("axes"));
  const TensorTypeNode* merged = TensorTypeOfExpr(match.root);
  if (merged == nullptr) return nullptr;
  attrs.Set("output_shape", merged->shape);
  std::vector<Expr> args = {query->operand, key->operand, value->operand};
  if (masked->mask) args.push_back(masked->mask);
  const Expr attention = TypeChecked(CallOp("nn.attention", args, attrs));
  return attention && TypeEqual(attention->checked_type(), match.root->checked_type()) ? attention : nullptr;
}

// One 1x1 convolution of one group (stride 1, no padding) and its per-channel bias, as
// bias_add(conv2d(input, weight), bias) or add(conv2d(input, weight), bias of shape (O, 1, 1)).
struct PointwiseLayer {
  Expr input;
  Expr weight;
  Expr bias;  // an (O) vector
};

std::optional<PointwiseLayer> PointwiseLayerOf(const Expr& expr) {
  const CallNode* bias_add = AsCallOf(expr, "nn.bias_add");
  const CallNode* add = AsCallOf(expr, "add");
  const CallNode* biased = bias_add != nullptr ? bias_add : add;
  const CallNode* conv = biased != nullptr ? AsCallOf(biased->args[0], "nn.conv2d") : nullptr;
  if (conv == nullptr) return std::nullopt;
  const Tensor* weight = ConstantTensor(conv->args[1]);
  const Tensor* bias = ConstantTensor(biased->args[1]);
  if (weight == nullptr || bias == nullptr || weight->rank() != 4 || weight->shape()[2] != 1 ||
      weight->shape()[3] != 1 || conv->attrs.GetInt("groups") != 1 ||
      conv->attrs.GetInts("strides") != std::vector<int64_t>{1, 1} ||
      conv->attrs.GetInts("padding") != std::vector<int64_t>{0, 0, 0, 0}) {
    return std::nullopt;
  }
  const int64_t channels = weight->shape()[0];
  const Shape& bias_shape = bias->shape();
  const bool per_channel = bias_add != nullptr ? bias_add->attrs.GetInt("axis") == 1 && bias_shape == Shape{channels}
                                               : bias_shape == Shape{channels, 1, 1} ||
                                                     bias_shape == Shape{1, channels, 1, 1};
  if (!per_channel) return std::nullopt;
  return PointwiseLayer{conv->args[0], conv->args[1], ChannelVector(biased->args[1], channels, 0.0)};
}

// multiply(gate(expand(activation(reduce(pool(x))))), x) as nn.squeeze_excitation.
Expr FuseSqueezeExcitation(const Bindings& bindings) {
  const PatternMatch& match = bindings.match();
  const Expr x = bindings.Get("se_x");
  const auto* root = As<CallNode>(match.root);
  const Expr gate = root->args[0] == x ? root->args[1] : root->args[0];
  Attrs attrs;
  Expr expand_expr;
  if (const CallNode* sigmoid = AsCallOf(gate, "sigmoid")) {
    attrs.Set("gate", std::string("sigmoid"));
    expand_expr = sigmoid->args[0];
  } else {
    const CallNode* clip = AsCallOf(gate, "clip");
    const CallNode* shift = clip != nullptr ? AsCallOf(clip->args[0], "add") : nullptr;
    const CallNode* slope = shift != nullptr ? AsCallOf(shift->args[0], "multiply") : nullptr;
    const std::optional<double> slope_value = slope != nullptr ? ScalarValue(slope->args[1]) : std::nullopt;
    const std::optional<double> offset_value = shift != nullptr ? ScalarValue(shift->args[1]) : std::nullopt;
    if (!slope_value || !offset_value) return nullptr;
    attrs.Set("gate", std::string("hard_sigmoid"));
    attrs.Set("gate_slope", *slope_value);
    attrs.Set("gate_offset", *offset_value);
    expand_expr = slope->args[0];
  }
  const std::optional<PointwiseLayer> expand = PointwiseLayerOf(expand_expr);
  const std::optional<PointwiseLayer> reduce = PointwiseLayerOf(bindings.Get("se_reduce"));
  if (!expand || !reduce) return nullptr;
  attrs.Set("activation", std::string(AsCallOf(expand->input, "nn.relu") ? "relu" : "silu"));
  const Expr fused =
      TypeChecked(CallOp("nn.squeeze_excitation", {x, reduce->weight, reduce->bias, expand->weight, expand->bias}, attrs));
  return fused && TypeEqual(fused->checked_type(), match.root->checked_type()) ? fused : nullptr;
}

// How one form is checked beyond its pattern and rewritten.
struct FormRule {
  std::vector<std::string> tied;  // sub-patterns each bound to one expression
  std::function<bool(const Bindings&)> check;
  std::function<Expr(const Bindings&)> fuse;  // empty: no fused op
};

const std::map<std::string, FormRule>& FormRules() {
  static const std::map<std::string, FormRule> rules = {
      {"layer_norm",
       {{"ln_x"},
        [](const Bindings& b) { return IsLayerNorm(b, "ln_x", "ln"); },
        [](const Bindings& b) { return FuseLastAxisNorm(b, "nn.layer_norm", "ln", {{"gamma", 1.0}, {"beta", 0.0}}); }}},
      {"rms_norm",
       {{"rms_x"},
        [](const Bindings& b) {
          const std::optional<double> epsilon = ScalarValue(b.Get("rms_epsilon"));
          return IsF32(b.Get("rms_x")) && !TensorTypeOfExpr(b.Get("rms_x"))->shape.empty() &&
                 InsideCallsReduce(b.match(), "mean", {-1}) && epsilon && *epsilon >= 0 &&
                 (!b.Get("rms_gamma") || IsChannelVector(b.Get("rms_gamma"), TensorTypeOfExpr(b.Get("rms_x"))->shape.back()));
        },
        [](const Bindings& b) { return FuseLastAxisNorm(b, "nn.rms_norm", "rms", {{"gamma", 1.0}}); }}},
      {"gelu_erf",
       {{"gelu_x"},
        [](const Bindings& b) { return IsF32(b.Get("gelu_x")); },
        [](const Bindings& b) { return UnaryCall("nn.gelu", b.Get("gelu_x"), Attrs{{"approximate", std::string("none")}}); }}},
      {"gelu_tanh",
       {{"gelu_x"},
        [](const Bindings& b) { return IsF32(b.Get("gelu_x")); },
        [](const Bindings& b) { return UnaryCall("nn.gelu", b.Get("gelu_x"), Attrs{{"approximate", std::string("tanh")}}); }}},
      {"silu",
       {{"silu_x"},
        [](const Bindings& b) { return IsF32(b.Get("silu_x")); },
        [](const Bindings& b) { return UnaryCall("nn.silu", b.Get("silu_x")); }}},
      {"hard_sigmoid",
       {{"hs_x"},
        [](const Bindings& b) {
          return IsF32(b.Get("hs_x")) && EveryBindingIsScalar(b, "hs_slope") && EveryBindingIsScalar(b, "hs_offset");
        },
        {}}},
      {"hard_swish",
       {{"hs_x"},
        [](const Bindings& b) {
          if (!IsF32(b.Get("hs_x"))) return false;
          const Expr slope = b.Get("hs_slope");
          if (!slope) return true;  // the relu6 forms, whose constants are checked by value
          const std::optional<double> slope_value = ScalarValue(slope);
          const std::optional<double> offset_value = ScalarValue(b.Get("hs_offset"));
          return slope_value && offset_value && std::fabs(*slope_value - 1.0 / 6.0) < 1e-6 &&
                 std::fabs(*offset_value - 0.5) < 1e-6;
        },
        [](const Bindings& b) { return UnaryCall("nn.hard_swish", b.Get("hs_x")); }}},
      {"scaled_masked_softmax",
       {{},
        [](const Bindings& b) { return SoftmaxesOnLastAxis(b.match()) && EveryBindingIsScalar(b, "sm_scale"); },
        FuseMaskedSoftmax}},
      {"scaled_dot_product_attention",
       {{},
        [](const Bindings& b) { return SoftmaxesOnLastAxis(b.match()) && EveryBindingIsScalar(b, "attn_scale"); },
        FuseAttention}},
      {"bias_residual_layer_norm",
       {{"brn_sum"},
        [](const Bindings& b) {
          if (b.Get("brn_epsilon")) return IsLayerNorm(b, "brn_sum", "brn");
          return IsF32(b.Get("brn_sum"));  // the nn.layer_norm call checks its own operands
        },
        {}}},
      {"squeeze_excitation",
       {{"se_x", "se_reduce"},
        [](const Bindings& b) { return IsF32(b.Get("se_x")) && InsideCallsReduce(b.match(), "mean", {2, 3}); },
        FuseSqueezeExcitation}},
  };
  return rules;
}

std::vector<DecomposedForm> BuildForms() {
  const PatternDefinitions definitions = ParsePatternDefinitions(FormTable(), "pass/fused_forms/decomposed_forms.cc");
  auto sub_patterns = std::make_shared<const std::map<std::string, Pattern>>(definitions.sub_patterns);
  std::vector<DecomposedForm> forms;
  for (const LabelledPattern& entry : definitions.entries) {
    const FormRule& rule = FormRules().at(entry.label);
    std::vector<Pattern> tied;
    for (const std::string& name : rule.tied) tied.push_back(sub_patterns->at(name));
    const MatchPredicate ties = BindsOneExpressionEach(std::move(tied));
    MatchPredicate accepts = [sub_patterns, ties, check = rule.check](const PatternMatch& match) {
      const Bindings bindings(match, *sub_patterns);
      return ties(match) && ConstantsHaveTheirValues(bindings) && check(bindings);
    };
    RewriteCallback fuse;
    if (rule.fuse) {
      fuse = [sub_patterns, accepts, build = rule.fuse](const PatternMatch& match) -> Expr {
        if (!accepts(match)) return nullptr;
        return build(Bindings(match, *sub_patterns));
      };
    }
    forms.push_back({entry.label, entry.pattern, std::move(accepts), std::move(fuse)});
  }
  return forms;
}

}  // namespace

const std::vector<DecomposedForm>& DecomposedForms() {
  static const std::vector<DecomposedForm> forms = BuildForms();
  return forms;
}

const DecomposedForm& DecomposedFormNamed(std::string_view name) {
  for (const DecomposedForm& form : DecomposedForms()) {
    if (form.name == name) return form;
  }
  throw Error("no decomposed form named '" + std::string(name) + "'");
}

MatchPredicate AcceptsUnder(const DecomposedForm& form, const std::map<std::string, MatchPredicate>& conditions) {
  const auto condition = conditions.find(form.name);
  if (condition == conditions.end()) return form.accepts;
  return [accepts = form.accepts, also = condition->second](const PatternMatch& match) {
    return accepts(match) && also(match);
  };
}

Expr FuseDecomposedForms(const Expr& expr, const std::vector<std::string>& form_names,
                         const std::map<std::string, MatchPredicate>& conditions) {
  std::vector<PatternCallback> callbacks;
  for (const std::string& name : form_names) {
    const DecomposedForm& form = DecomposedFormNamed(name);
    if (!form.fuse) throw Error("decomposed form '" + name + "' has no fused op");
    callbacks.push_back({form.pattern, form.fuse, AcceptsUnder(form, conditions)});
  }
  return RewritePatterns(callbacks, expr);
}

Function FuseDecomposedFormsInPartition(const Function& partition, const std::vector<std::string>& form_names,
                                        const std::map<std::string, MatchPredicate>& conditions) {
  const Function inlined = InlineCompositeCalls(partition);
  InferType(inlined);
  return Downcast<FunctionNode>(FuseDecomposedForms(inlined, form_names, conditions));
}

}  // namespace collage
