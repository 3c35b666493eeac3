#include "backend/xnnpack/bias_fusion.h"

#include <optional>

#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/partition_body.h"
#include "backend/xnnpack/support_rules.h"
#include "ir/op_registry.h"

namespace collage::xnnpack {
namespace {

// The output-channel axis of a conv2d or conv2d_transpose (1) or dense (last) call; nullopt
// for other calls.
std::optional<size_t> ChannelAxis(const CallNode& call) {
  if (!call.op()) return std::nullopt;
  if (call.op()->name == "nn.conv2d" || call.op()->name == "nn.conv2d_transpose") return 1;
  if (call.op()->name == "nn.dense") return AsTensorType(call.checked_type())->shape.size() - 1;
  return std::nullopt;
}

// `constant` (broadcast against `out_shape`) as a 1-D vector over `axis`, when it varies along
// no other axis and does not widen the result.
std::optional<Tensor> AsChannelVector(const Tensor& constant, const Shape& out_shape, size_t axis) {
  if (constant.dtype() != DType::kF32 || constant.shape().size() > out_shape.size()) return std::nullopt;
  const Shape aligned = PrependOnes(constant.shape(), out_shape.size());
  for (size_t d = 0; d < aligned.size(); ++d) {
    if (d != axis && aligned[d] != 1) return std::nullopt;
  }
  const int64_t channels = out_shape[axis];
  if (aligned[axis] != channels && aligned[axis] != 1) return std::nullopt;
  Tensor bias = Tensor::Zeros(DType::kF32, {channels});
  for (int64_t c = 0; c < channels; ++c) {
    bias.data<float>()[c] = constant.data<float>()[aligned[axis] == 1 ? 0 : c];
  }
  return bias;
}

// The bias an add-like call adds to `producer` (its argument `producer_index`), if foldable.
std::optional<Tensor> FoldableBias(const CallNode& add, size_t producer_index, const CallNode& producer,
                                   size_t channel_axis) {
  const auto* constant = As<ConstantNode>(ForwardProjections(add.args[1 - producer_index]));
  if (!constant) return std::nullopt;
  const Shape& out_shape = AsTensorType(producer.checked_type())->shape;
  if (add.op()->name == "nn.bias_add") {
    // Type checking made the 1-D bias as long as the axis it is added along.
    const bool along_channels =
        NormalizeAxis(add.attrs.GetInt("axis"), out_shape.size()) == static_cast<int64_t>(channel_axis);
    if (producer_index != 0 || !along_channels || constant->data.dtype() != DType::kF32) return std::nullopt;
    return constant->data;
  }
  return AsChannelVector(constant->data, out_shape, channel_axis);
}

}  // namespace

BiasFusion PlanBiasFusion(const std::vector<Expr>& post_order, const std::unordered_map<const ExprNode*, int>& uses) {
  BiasFusion fusion;
  for (const Expr& expr : post_order) {
    const auto* add = As<CallNode>(expr);
    if (!add || !add->op() || (add->op()->name != "add" && add->op()->name != "nn.bias_add")) continue;
    if (!UnsupportedReason(*add).empty()) continue;
    for (size_t i = 0; i < 2; ++i) {
      const Expr producer_expr = ForwardProjections(add->args[i]);
      const auto* producer = As<CallNode>(producer_expr);
      if (!producer || uses.at(producer) != 1 || fusion.bias_of_producer.count(producer)) continue;
      const std::optional<size_t> axis = ChannelAxis(*producer);
      if (!axis || !UnsupportedReason(*producer).empty()) continue;
      std::optional<Tensor> bias = FoldableBias(*add, i, *producer, *axis);
      if (!bias) continue;
      fusion.bias_of_producer.emplace(producer, std::move(*bias));
      fusion.producer_of_add[add] = producer;
      fusion.add_of_producer[producer] = add;
      break;
    }
  }
  return fusion;
}

}  // namespace collage::xnnpack
