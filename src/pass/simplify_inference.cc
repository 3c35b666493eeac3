// SimplifyInference: removes training-only ops and folds batch normalization.
//
//   bn(conv2d(x, W), gamma, beta, mean, var)  with W and the bn parameters constant and the
//   conv used only by the bn  ->  bias_add(conv2d(x, W * s), beta - mean * s),
//   s = gamma / sqrt(var + eps) per output channel. The same for nn.conv2d_transpose (whose
//   weights hold the output channels of each group on axis 1), for nn.dense (s per output
//   feature) and for a bias_add between the producer and the bn.
//   Any other bn  ->  x * s + (beta - mean * s), broadcast along the bn axis.
#include <cmath>
#include <unordered_map>

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "pass/standard_passes.h"

namespace collage {
namespace {

const Tensor* ConstantData(const Expr& expr) {
  const auto* constant = As<ConstantNode>(expr);
  return constant != nullptr && constant->data.dtype() == DType::kF32 ? &constant->data : nullptr;
}

// The per-channel scale s and shift t with bn(x) = x * s + t, when all four bn parameters
// are f32 constants.
struct ChannelAffine {
  std::vector<double> scale;
  std::vector<double> shift;
};

std::optional<ChannelAffine> ConstantAffine(const CallNode& batch_norm) {
  const Tensor* gamma = ConstantData(batch_norm.args[1]);
  const Tensor* beta = ConstantData(batch_norm.args[2]);
  const Tensor* mean = ConstantData(batch_norm.args[3]);
  const Tensor* var = ConstantData(batch_norm.args[4]);
  if (!gamma || !beta || !mean || !var) return std::nullopt;
  const double epsilon = batch_norm.attrs.GetFloat("epsilon");
  ChannelAffine affine;
  for (int64_t c = 0; c < gamma->NumElements(); ++c) {
    const double s = gamma->GetAsDouble(c) / std::sqrt(var->GetAsDouble(c) + epsilon);
    affine.scale.push_back(s);
    affine.shift.push_back(beta->GetAsDouble(c) - mean->GetAsDouble(c) * s);
  }
  return affine;
}

// Maps a flat index into a producer's weight tensor to the output channel it computes.
// nn.conv2d and nn.dense hold one output channel per slice of axis 0; nn.conv2d_transpose
// holds (in channels, out channels / groups, KH, KW), so group g's input channels
// [g * I/G, (g + 1) * I/G) carry output channels [g * O/G, (g + 1) * O/G) on axis 1.
struct WeightChannels {
  int64_t slice = 1;               // elements per index of the channel axis
  int64_t channels_in_slice = 1;   // extent of axis 1 (transposed) or 1
  int64_t rows_per_group = 1;      // axis-0 indices per group (transposed) or 1
  bool transposed = false;

  static WeightChannels Of(const CallNode& producer, const Tensor& weight) {
    WeightChannels map;
    const Shape& shape = weight.shape();
    map.transposed = producer.op()->name == "nn.conv2d_transpose";
    if (!map.transposed) {
      map.slice = weight.NumElements() / shape[0];
      return map;
    }
    map.channels_in_slice = shape[1];
    map.slice = shape[2] * shape[3];
    map.rows_per_group = shape[0] / producer.attrs.GetInt("groups");
    return map;
  }

  int64_t operator()(int64_t index) const {
    if (!transposed) return index / slice;
    const int64_t row = index / (slice * channels_in_slice);
    const int64_t channel_in_group = (index / slice) % channels_in_slice;
    return (row / rows_per_group) * channels_in_slice + channel_in_group;
  }
};

class BatchNormFolder : public ExprMutator {
 public:
  explicit BatchNormFolder(const Function& function) {
    for (const Expr& node : PostOrder(function)) {
      ForEachChild(*node, [&](const Expr& child) { ++user_count_[child.get()]; });
    }
  }

 protected:
  Expr RewriteCall(const Call& pre, const Call& post) override {
    if (AsCallOf(post, "nn.dropout")) return post->args[0];
    if (!AsCallOf(post, "nn.batch_norm")) return post;
    std::optional<ChannelAffine> affine = ConstantAffine(*post);
    if (affine) {
      if (Expr folded = FoldIntoProducer(*pre, *post, *affine)) return folded;
    }
    return Decompose(*pre, *post);
  }

 private:
  bool HasSingleUser(const Expr& expr) const {
    auto it = user_count_.find(expr.get());
    return it != user_count_.end() && it->second == 1;
  }

  // bn(producer(x, W) [+ bias]) -> producer(x, W * s) + (bias * s + t), or nullptr.
  Expr FoldIntoProducer(const CallNode& pre, const CallNode& post, const ChannelAffine& affine) {
    Expr producer = post.args[0];
    Expr pre_producer = pre.args[0];
    const Tensor* bias = nullptr;
    int64_t bias_axis = -1;
    if (const CallNode* bias_add = AsCallOf(producer, "nn.bias_add")) {
      bias = ConstantData(bias_add->args[1]);
      if (bias == nullptr || !HasSingleUser(pre_producer)) return nullptr;
      bias_axis = bias_add->attrs.GetInt("axis");
      pre_producer = As<CallNode>(pre_producer)->args[0];
      producer = bias_add->args[0];
    }
    const bool is_conv =
        AsCallOf(producer, "nn.conv2d") != nullptr || AsCallOf(producer, "nn.conv2d_transpose") != nullptr;
    const bool is_dense = AsCallOf(producer, "nn.dense") != nullptr;
    if ((!is_conv && !is_dense) || !HasSingleUser(pre_producer)) return nullptr;
    const auto* call = As<CallNode>(producer);
    const Tensor* weight = ConstantData(call->args[1]);
    const auto* output_type = AsTensorType(pre_producer->checked_type());
    if (weight == nullptr || output_type == nullptr) return nullptr;
    // The bn must normalize the producer's channel axis: 1 for NCHW conv, last for dense.
    const int64_t rank = static_cast<int64_t>(output_type->shape.size());
    const int64_t axis = NormalizeAxis(post.attrs.GetInt("axis"), rank, "nn.batch_norm");
    if (axis != (is_conv ? 1 : rank - 1)) return nullptr;
    if (bias != nullptr && NormalizeAxis(bias_axis, rank, "nn.bias_add") != axis) return nullptr;
    const int64_t channels = output_type->shape[static_cast<size_t>(axis)];
    if (channels != static_cast<int64_t>(affine.scale.size())) return nullptr;

    const WeightChannels output_channel_of = WeightChannels::Of(*call, *weight);
    Tensor scaled_weight = weight->Clone();
    for (int64_t i = 0; i < weight->NumElements(); ++i) {
      const double scale = affine.scale[static_cast<size_t>(output_channel_of(i))];
      scaled_weight.SetFromDouble(i, weight->GetAsDouble(i) * scale);
    }
    Tensor new_bias = Tensor::Zeros(DType::kF32, {channels});
    for (int64_t c = 0; c < channels; ++c) {
      const double old_bias = bias ? bias->GetAsDouble(c) : 0.0;
      new_bias.SetFromDouble(c, old_bias * affine.scale[static_cast<size_t>(c)] + affine.shift[static_cast<size_t>(c)]);
    }
    Expr rescaled = CallOp(call->op()->name, {call->args[0], MakeConstant(scaled_weight)}, call->attrs);
    return CallOp("nn.bias_add", {rescaled, MakeConstant(new_bias)}, {{"axis", axis}});
  }

  // x * s + (beta - mean * s) with s = gamma * rsqrt(var + eps), broadcast along the axis.
  // Types come from the original call `pre`: the rewritten arguments of `batch_norm` may be
  // new nodes that are not type-checked yet.
  static Expr Decompose(const CallNode& pre, const CallNode& batch_norm) {
    const auto* data_type = AsTensorType(pre.args[0]->checked_type());
    Check(data_type != nullptr, "nn.batch_norm: the data must be a type-checked tensor");
    const int64_t rank = static_cast<int64_t>(data_type->shape.size());
    const int64_t axis = NormalizeAxis(batch_norm.attrs.GetInt("axis"), rank, "nn.batch_norm");
    Tensor epsilon = Tensor::Zeros(data_type->dtype, {});
    epsilon.SetFromDouble(0, batch_norm.attrs.GetFloat("epsilon"));
    Expr scale = CallOp("multiply", {batch_norm.args[1],
                                     CallOp("rsqrt", {CallOp("add", {batch_norm.args[4], MakeConstant(epsilon)})})});
    Expr shift = CallOp("subtract", {batch_norm.args[2], CallOp("multiply", {batch_norm.args[3], scale})});
    // [C] -> [C, 1, ..., 1] so that it broadcasts along `axis`.
    std::vector<int64_t> broadcast_shape(static_cast<size_t>(rank - axis), 1);
    broadcast_shape[0] = data_type->shape[static_cast<size_t>(axis)];
    auto along_axis = [&](const Expr& vector) { return CallOp("reshape", {vector}, {{"newshape", broadcast_shape}}); };
    return CallOp("add", {CallOp("multiply", {batch_norm.args[0], along_axis(scale)}), along_axis(shift)});
  }

  std::unordered_map<const ExprNode*, int> user_count_;
};

}  // namespace

Pass SimplifyInference() {
  return Pass::FunctionPass({"SimplifyInference", 0}, [](const Function& function, const Module&, const PassContext&) {
    InferType(function);
    return FoldConstantsIn(Downcast<FunctionNode>(BatchNormFolder(function).Mutate(function)));
  });
}

}  // namespace collage
