// nn.conv2d as one oneDNN convolution: activations and weights in the layouts it prefers
// (format_tag::any; constant weights are reordered once at compile time), groups as a 5-D
// goihw weight view, the bias and the post-ops of its epilogue fused.
#include "op/nn_common.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {

void LowerConvolution(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue) {
  const int data = call.inputs[0];
  const int weight = call.inputs[1];
  const Shape& data_shape = lowering.value(data).shape;
  const Shape& weight_shape = lowering.value(weight).shape;
  if (data_shape.size() != 4) lowering.Fail("nn.conv2d on " + std::to_string(data_shape.size()) + "-D data (NCHW only)");
  const Window2D window = GetWindow2D(call.call->attrs);
  const int64_t groups = call.call->attrs.GetInt("groups");
  const int64_t out_channels = weight_shape[0];

  // (G, O/G, I/G, KH, KW) with groups, (O, I, KH, KW) without.
  Shape weight_dims = weight_shape;
  if (groups > 1) {
    weight_dims = {groups, out_channels / groups, weight_shape[1], weight_shape[2], weight_shape[3]};
  }
  const auto any = memory::format_tag::any;
  const auto f32 = memory::data_type::f32;
  const memory::desc src_any(ToDims(data_shape), f32, any);
  const memory::desc weights_any(ToDims(weight_dims), f32, any);
  const memory::desc bias_any = epilogue.bias >= 0 ? memory::desc({out_channels}, f32, any) : memory::desc();
  const memory::desc dst_any(ToDims(lowering.value(call.output).shape), f32, any);
  const memory::dims strides = {window.strides[0], window.strides[1]};
  const memory::dims dilation = {window.dilation[0] - 1, window.dilation[1] - 1};  // oneDNN counts the gaps
  const memory::dims pad_begin = {window.pad_begin[0], window.pad_begin[1]};
  const memory::dims pad_end = {window.pad_end[0], window.pad_end[1]};
  const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                             src_any, weights_any, bias_any, dst_any, strides, dilation, pad_begin,
                                             pad_end);
  const dnnl::convolution_forward::primitive_desc primitive(desc, MakeAttr(epilogue), lowering.engine());

  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = lowering.Get(data, primitive.src_desc());
  args[DNNL_ARG_WEIGHTS] = lowering.GetViewed(weight, PlainDesc(weight_dims), primitive.weights_desc());
  if (epilogue.bias >= 0) {
    args[DNNL_ARG_BIAS] = lowering.GetViewed(epilogue.bias, PlainDesc({out_channels}), primitive.bias_desc());
  }
  args[DNNL_ARG_DST] = PrepareDestination(lowering, epilogue, primitive.dst_desc());
  lowering.AddStep(dnnl::convolution_forward(primitive), std::move(args));
}

}  // namespace collage::onednn
