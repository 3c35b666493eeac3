// A 1x1 convolution and the 3x3 depthwise convolution that alone reads its result, as one
// oneDNN convolution with a depthwise post-op: the inverted-residual block of mobile CNNs
// (expand, then filter each channel). The fused kernel filters rows of the expanded tensor
// while they are still in cache instead of writing the whole tensor and reading it back; on
// large planes (112x112) that saves a third of the pair's time. oneDNN offers the fused kernel
// only for some shapes and falls back to running the two primitives one after the other
// ("ref_fused_convolution"); the pair is then lowered as two convolutions, as without fusion.
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "op/nn_common.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {
namespace {

constexpr int64_t kDepthwiseKernel = 3;

bool HasSum(const Epilogue& epilogue) { return epilogue.SumAddend() >= 0; }

bool IsUnitWindow(const Window2D& window) {
  for (int axis = 0; axis < 2; ++axis) {
    if (window.strides[axis] != 1 || window.dilation[axis] != 1 || window.pad_begin[axis] != 0 ||
        window.pad_end[axis] != 0) {
      return false;
    }
  }
  return true;
}

// A 2-D convolution over 4-D data whose weights are a constant.
bool IsConstantWeightConvolution(const FlatPartition& partition, const FlatCall& call) {
  return call.op == "nn.conv2d" && partition.value(call.inputs[0]).shape.size() == 4 &&
         partition.IsConstant(call.inputs[1]);
}

dnnl::post_ops AppendEltwises(dnnl::post_ops post_ops, const Epilogue& epilogue) {
  for (const PostOp& post_op : epilogue.post_ops) {
    post_ops.append_eltwise(1.0f, post_op.eltwise.algorithm, post_op.eltwise.alpha, post_op.eltwise.beta);
  }
  return post_ops;
}

}  // namespace

bool CanFuseDepthwiseAfterPointwise(const Lowering& lowering, const FlatCall& pointwise,
                                    const Epilogue& pointwise_epilogue, const FlatCall& depthwise,
                                    const Epilogue& depthwise_epilogue) {
  const FlatPartition& partition = lowering.partition();
  if (!IsConstantWeightConvolution(partition, pointwise) || !IsConstantWeightConvolution(partition, depthwise)) {
    return false;
  }
  if (lowering.ActivationQuantizationOf(pointwise.inputs[0]) || HasSum(pointwise_epilogue) ||
      HasSum(depthwise_epilogue)) {
    return false;
  }
  const Shape& pointwise_weights = partition.value(pointwise.inputs[1]).shape;
  if (pointwise.call->attrs.GetInt("groups") != 1 || pointwise_weights[2] != 1 || pointwise_weights[3] != 1 ||
      !IsUnitWindow(GetWindow2D(pointwise.call->attrs))) {
    return false;
  }
  const int expanded = pointwise_epilogue.result;
  if (depthwise.inputs[0] != expanded || partition.consumers[expanded].size() != 1 || partition.IsOutput(expanded)) {
    return false;
  }
  const Shape& plane = partition.value(expanded).shape;
  const Shape& filtered = partition.value(depthwise.output).shape;
  const Shape& depthwise_weights = partition.value(depthwise.inputs[1]).shape;
  const int64_t channels = plane[1];
  if (depthwise.call->attrs.GetInt("groups") != channels || depthwise_weights[0] != channels ||
      depthwise_weights[1] != 1 || depthwise_weights[2] != kDepthwiseKernel ||
      depthwise_weights[3] != kDepthwiseKernel) {
    return false;
  }
  // oneDNN's depthwise post-op pads by one at the top and left and computes ceil(extent / stride)
  // rows and columns, which is what the graph's window must compute too.
  const Window2D window = GetWindow2D(depthwise.call->attrs);
  const int64_t stride = window.strides[0];
  for (int axis = 0; axis < 2; ++axis) {
    if (window.strides[axis] != stride || (stride != 1 && stride != 2) || window.dilation[axis] != 1 ||
        window.pad_begin[axis] != 1 || filtered[2 + axis] != (plane[2 + axis] + stride - 1) / stride) {
      return false;
    }
  }
  return true;
}

bool LowerConvolutionWithDepthwise(Lowering& lowering, const FlatCall& pointwise, const Epilogue& pointwise_epilogue,
                                   const FlatCall& depthwise, const Epilogue& depthwise_epilogue) {
  const FlatPartition& partition = lowering.partition();
  const auto any = memory::format_tag::any;
  const auto f32 = memory::data_type::f32;
  const Shape& data_shape = partition.value(pointwise.inputs[0]).shape;
  const Shape& pointwise_weights = partition.value(pointwise.inputs[1]).shape;
  const Shape& plane = partition.value(pointwise_epilogue.result).shape;
  const int64_t channels = plane[1];
  const bool pointwise_bias = pointwise_epilogue.bias >= 0;
  const bool depthwise_bias = depthwise_epilogue.bias >= 0;

  dnnl::post_ops post_ops = AppendEltwises(dnnl::post_ops(), pointwise_epilogue);
  post_ops.append_dw(f32, depthwise_bias ? f32 : memory::data_type::undef, f32, kDepthwiseKernel,
                     GetWindow2D(depthwise.call->attrs).strides[0], 1, 0, {});
  post_ops = AppendEltwises(post_ops, depthwise_epilogue);
  dnnl::primitive_attr attr;
  attr.set_post_ops(post_ops);

  const dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, memory::desc(ToDims(data_shape), f32, any),
      memory::desc(ToDims(pointwise_weights), f32, any),
      pointwise_bias ? memory::desc({channels}, f32, any) : memory::desc(), memory::desc(ToDims(plane), f32, any),
      {1, 1}, {0, 0}, {0, 0}, {0, 0});
  std::optional<dnnl::convolution_forward::primitive_desc> primitive;
  try {
    primitive.emplace(desc, attr, lowering.engine());
  } catch (const dnnl::error&) {
    return false;
  }
  if (IsReference(*primitive)) return false;

  const auto depthwise_argument = [&](int argument) {
    return primitive->query_md(dnnl::query::exec_arg_md, DNNL_ARG_ATTR_POST_OP_DW | argument);
  };
  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = lowering.Get(pointwise.inputs[0], primitive->src_desc());
  args[DNNL_ARG_WEIGHTS] =
      lowering.GetViewed(pointwise.inputs[1], PlainDesc(pointwise_weights), primitive->weights_desc());
  if (pointwise_bias) {
    args[DNNL_ARG_BIAS] = lowering.GetViewed(pointwise_epilogue.bias, PlainDesc({channels}), primitive->bias_desc());
  }
  args[DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS] =
      lowering.GetViewed(depthwise.inputs[1], PlainDesc({channels, 1, 1, kDepthwiseKernel, kDepthwiseKernel}),
                         depthwise_argument(DNNL_ARG_WEIGHTS));
  if (depthwise_bias) {
    args[DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS] =
        lowering.GetViewed(depthwise_epilogue.bias, PlainDesc({channels}), depthwise_argument(DNNL_ARG_BIAS));
  }
  args[DNNL_ARG_DST] = PrepareDestination(lowering, depthwise_epilogue, primitive->dst_desc());
  lowering.AddStep(dnnl::convolution_forward(*primitive), std::move(args));
  return true;
}

}  // namespace collage::onednn
