#include "backend/onednn/epilogue.h"

namespace collage::onednn {
namespace {

// Whether `shape` holds `channels` values along `axis` of a `rank`-D result, 1 elsewhere
// (aligned to the right, numpy style).
bool IsPerChannel(const Shape& shape, int64_t channels, int64_t axis, int64_t rank) {
  const int64_t offset = rank - static_cast<int64_t>(shape.size());
  if (offset < 0 || NumElements(shape) != channels) return false;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    if (shape[i] != (i + offset == axis ? channels : 1)) return false;
  }
  return true;
}

// The constant bias `call` adds to `current`, or -1.
int BiasOf(const FlatPartition& partition, const FlatCall& call, int current, int64_t channel_axis) {
  const Shape& shape = partition.value(current).shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (channel_axis < 0 || channel_axis >= rank) return -1;
  int bias = -1;
  bool per_channel = false;
  if (call.op == "nn.bias_add" && call.inputs[0] == current) {
    // The type relation makes the bias a vector of the axis's extent.
    const int64_t axis = call.call->attrs.GetInt("axis");
    bias = call.inputs[1];
    per_channel = (axis < 0 ? axis + rank : axis) == channel_axis;
  } else if (call.op == "add" && call.inputs[0] != call.inputs[1]) {
    bias = call.inputs[0] == current ? call.inputs[1] : call.inputs[0];
    per_channel = IsPerChannel(partition.value(bias).shape, shape[channel_axis], channel_axis, rank);
  }
  const bool fits = per_channel && partition.IsConstant(bias) && partition.value(bias).dtype == DType::kF32 &&
                    partition.value(call.output).shape == shape;
  return fits ? bias : -1;
}

// The addend of a residual add of `current`, or -1.
int AddendOf(const FlatPartition& partition, const FlatCall& call, int current) {
  if (call.op != "add" || call.inputs[0] == call.inputs[1]) return -1;
  const int addend = call.inputs[0] == current ? call.inputs[1] : call.inputs[0];
  const FlatValue& value = partition.value(addend);
  const bool fits = value.dtype == DType::kF32 && value.shape == partition.value(current).shape &&
                    partition.value(call.output).shape == value.shape;
  return fits ? addend : -1;
}

}  // namespace

Epilogue CollectEpilogue(const FlatPartition& partition, int anchor, int channel_axis,
                         const std::vector<bool>& fused_elsewhere, FusedPostOps post_ops) {
  Epilogue epilogue;
  epilogue.result = partition.calls[anchor].output;
  bool has_sum = false;
  while (partition.HasSingleCallUse(epilogue.result)) {
    const int next = partition.consumers[epilogue.result].front();
    const FlatCall& call = partition.calls[next];
    if (fused_elsewhere[next] || partition.value(call.output).dtype != DType::kF32) break;
    const int bias = epilogue.bias < 0 && epilogue.post_ops.empty()
                         ? BiasOf(partition, call, epilogue.result, channel_axis)
                         : -1;
    if (bias >= 0) {
      epilogue.bias = bias;
    } else if (post_ops == FusedPostOps::kNone) {
      break;
    } else if (const int addend = has_sum || post_ops != FusedPostOps::kEltwiseAndSum
                                      ? -1
                                      : AddendOf(partition, call, epilogue.result);
               addend >= 0) {
      epilogue.post_ops.push_back({true, {}, addend});
      has_sum = true;
    } else if (const std::optional<EltwiseSpec> eltwise = EltwiseOf(call); eltwise && call.inputs.size() == 1) {
      epilogue.post_ops.push_back({false, *eltwise, -1});
    } else {
      break;
    }
    epilogue.calls.push_back(next);
    epilogue.result = call.output;
  }
  return epilogue;
}

void AppendPostOps(const Epilogue& epilogue, dnnl::post_ops& post_ops) {
  for (const PostOp& post_op : epilogue.post_ops) {
    if (post_op.is_sum) {
      post_ops.append_sum(1.0f);
    } else {
      post_ops.append_eltwise(1.0f, post_op.eltwise.algorithm, post_op.eltwise.alpha, post_op.eltwise.beta);
    }
  }
}

dnnl::primitive_attr MakeAttr(const Epilogue& epilogue) {
  dnnl::post_ops post_ops;
  AppendPostOps(epilogue, post_ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(post_ops);
  return attr;
}

int Epilogue::SumAddend() const {
  for (const PostOp& post_op : post_ops) {
    if (post_op.is_sum) return post_op.addend;
  }
  return -1;
}

memory PrepareDestination(Lowering& lowering, const Epilogue& epilogue, const memory::desc& desc) {
  const int addend = epilogue.SumAddend();
  if (addend < 0) return lowering.Define(epilogue.result, desc);
  memory destination;
  if (lowering.IsScratch(addend) && (epilogue.sum_in_place || lowering.partition().HasSingleCallUse(addend))) {
    destination = lowering.Get(addend, desc);
  } else {
    destination = lowering.CopyOf(addend, desc);
  }
  lowering.Alias(epilogue.result, destination, /*scratch=*/true);
  return destination;
}

}  // namespace collage::onednn
