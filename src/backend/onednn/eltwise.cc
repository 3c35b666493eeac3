#include "backend/onednn/eltwise.h"

namespace collage::onednn {

std::optional<EltwiseSpec> EltwiseOf(const FlatCall& call) {
  using dnnl::algorithm;
  const Attrs& attrs = call.call->attrs;
  const std::string& op = call.op;
  if (op == "nn.relu") return EltwiseSpec{algorithm::eltwise_relu};
  if (op == "nn.leaky_relu") return EltwiseSpec{algorithm::eltwise_relu, static_cast<float>(attrs.GetFloat("alpha"))};
  if (op == "sigmoid") return EltwiseSpec{algorithm::eltwise_logistic};
  if (op == "tanh") return EltwiseSpec{algorithm::eltwise_tanh};
  if (op == "nn.silu") return EltwiseSpec{algorithm::eltwise_swish, 1.0f};  // x * sigmoid(alpha * x)
  if (op == "nn.hard_swish") return EltwiseSpec{algorithm::eltwise_hardswish};
  if (op == "nn.gelu") {
    const std::string& approximate = attrs.GetString("approximate");
    if (approximate == "none") return EltwiseSpec{algorithm::eltwise_gelu_erf};
    if (approximate == "tanh") return EltwiseSpec{algorithm::eltwise_gelu_tanh};
    return std::nullopt;
  }
  if (op == "clip") {
    return EltwiseSpec{algorithm::eltwise_clip, static_cast<float>(attrs.GetFloat("a_min")),
                       static_cast<float>(attrs.GetFloat("a_max"))};
  }
  if (op == "exp") return EltwiseSpec{algorithm::eltwise_exp};
  if (op == "log") return EltwiseSpec{algorithm::eltwise_log};
  if (op == "sqrt") return EltwiseSpec{algorithm::eltwise_sqrt};
  if (op == "rsqrt") return EltwiseSpec{algorithm::eltwise_pow, 1.0f, -0.5f};  // alpha * x^beta
  if (op == "abs") return EltwiseSpec{algorithm::eltwise_abs};
  if (op == "negative") return EltwiseSpec{algorithm::eltwise_linear, -1.0f, 0.0f};  // alpha * x + beta
  return std::nullopt;
}

}  // namespace collage::onednn
