#include "testing/fused_form_text.h"

#include <cmath>

namespace collage::testing {
namespace {

std::string Dims(const std::vector<int64_t>& dims) {
  std::string text;
  for (int64_t dim : dims) text += (text.empty() ? "" : ", ") + std::to_string(dim);
  return text;
}

std::string Scalar(double value) { return "constant([" + std::to_string(value) + "], Tensor[(), f32])"; }

std::string MaskParameter(MaskKind mask, const std::vector<int64_t>& shape) {
  if (mask == MaskKind::kNone) return "";
  return ", %mask: Tensor[(" + Dims(shape) + "), " + (mask == MaskKind::kSelect ? "bool" : "f32") + "]";
}

std::string Masked(MaskKind mask, const std::string& logits) {
  if (mask == MaskKind::kAdditive) return "add(" + logits + ", %mask)";
  if (mask == MaskKind::kSelect) return "where(%mask, " + Scalar(-10000.0) + ", " + logits + ")";
  return logits;
}

}  // namespace

std::string AttentionText(const AttentionShape& c, double divisor) {
  const int64_t channels = c.heads * c.depth;
  std::string text = "def @main(%q: Tensor[(" + Dims({c.batch, c.queries, channels}) + "), f32], %k: Tensor[(" +
                     Dims({c.batch, c.keys, channels}) + "), f32], %v: Tensor[(" + Dims({c.batch, c.keys, channels}) +
                     "), f32]" + MaskParameter(c.mask, {c.queries, c.keys});
  const auto heads = [&](const std::string& x, int64_t tokens, const std::string& axes) {
    return "transpose(reshape(" + x + ", newshape=[" + Dims({c.batch, tokens, c.heads, c.depth}) + "]), axes=[" + axes +
           "])";
  };
  return text + ") {\n  %0 = nn.matmul(" + heads("%q", c.queries, "0, 2, 1, 3") + ", " +
         heads("%k", c.keys, "0, 2, 3, 1") + ")\n  %1 = divide(%0, " + Scalar(divisor) + ")\n  %2 = nn.softmax(" +
         Masked(c.mask, "%1") + ")\n  %3 = nn.matmul(%2, " + heads("%v", c.keys, "0, 2, 1, 3") +
         ")\n  reshape(transpose(%3, axes=[0, 2, 1, 3]), newshape=[" + Dims({c.batch, c.queries, channels}) + "])\n}";
}

std::string MaskedSoftmaxText(const SoftmaxShape& c, double divisor) {
  return "def @main(%x: Tensor[(" + Dims(c.shape) + "), f32]" + MaskParameter(c.mask, c.mask_shape) +
         ") {\n  nn.softmax(" + Masked(c.mask, "divide(%x, " + Scalar(divisor) + ")") + ")\n}";
}

namespace {

// A constant of `shape` holding sin(seed + 0.7 i) * magnitude.
std::string ConstantText(const std::vector<int64_t>& shape, double seed, double magnitude) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::string values;
  for (int64_t i = 0; i < count; ++i) {
    values += (i == 0 ? "" : ", ") + std::to_string(std::sin(seed + 0.7 * static_cast<double>(i)) * magnitude);
  }
  return "constant([" + values + "], Tensor[(" + Dims(shape) + "), f32])";
}

}  // namespace

std::string SqueezeExcitationText(const SqueezeExcitationShape& c, double gate_offset) {
  const auto layer = [&](const std::string& input, int64_t out, int64_t in, double seed) {
    return "nn.bias_add(nn.conv2d(" + input + ", " + ConstantText({out, in, 1, 1}, seed, 0.5) + "), " +
           ConstantText({out}, seed + 1.0, 0.2) + ")";
  };
  std::string text = "def @main(%x: Tensor[(" + Dims({c.samples, c.channels, c.height, c.width}) + "), f32]) {\n" +
                     "  %0 = " + layer("nn.global_avg_pool2d(%x)", c.reduced, c.channels, 1.0) + "\n";
  text += c.silu ? "  %1 = multiply(%0, sigmoid(%0))\n" : "  %1 = nn.relu(%0)\n";
  text += "  %2 = " + layer("%1", c.channels, c.reduced, 2.0) + "\n";
  text += c.hard_gate ? "  %3 = clip(add(multiply(%2, " + Scalar(1.0 / 6.0) + "), " + Scalar(gate_offset) +
                            "), a_min=0.0, a_max=1.0)\n"
                      : "  %3 = sigmoid(%2)\n";
  return text + "  multiply(%3, %x)\n}";
}

std::string RmsNormText(const std::vector<int64_t>& shape, const std::string& epsilon, double gamma_step) {
  std::string gamma;
  for (int64_t c = 0; c < shape.back(); ++c) gamma += (c == 0 ? "" : ", ") + std::to_string(0.5 + c * gamma_step);
  return "def @main(%x: Tensor[(" + Dims(shape) + "), f32]) {\n  %0 = mean(power(%x, " + Scalar(2.0) +
         "), axis=[-1], keepdims=1)\n  %1 = multiply(%x, rsqrt(add(%0, constant([" + epsilon +
         "], Tensor[(), f32]))))\n  multiply(%1, constant([" + gamma + "], Tensor[(" + std::to_string(shape.back()) +
         "), f32]))\n}";
}

}  // namespace collage::testing
