// Normalizations along one axis: softmax and log-softmax (softmax_v2) and layer norm on the
// plain layout, layer norm as (rows, axis) over a plain view; inference batch norm with the
// moving statistics on the data's current layout.
#include "backend/onednn/implementation.h"
#include "backend/onednn/kernel_probe.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {
namespace {

int64_t NormalizedAxis(const Lowering& lowering, const FlatCall& call) {
  const int64_t rank = static_cast<int64_t>(ToDims(lowering.value(call.inputs[0]).shape).size());
  const int64_t axis = call.call->attrs.GetInt("axis");
  return axis < 0 ? axis + rank : axis;
}

void LowerSoftmax(Lowering& lowering, const FlatCall& call) {
  const memory source = lowering.GetPlain(call.inputs[0]);
  const auto algorithm = call.op == "nn.log_softmax" ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
  const dnnl::softmax_v2_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, source.get_desc(),
                                            source.get_desc(), static_cast<int>(NormalizedAxis(lowering, call)));
  const dnnl::softmax_v2_forward::primitive_desc primitive(desc, lowering.engine());
  const memory result = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::softmax_v2_forward(primitive), {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, result}});
}

void LowerLayerNorm(Lowering& lowering, const FlatCall& call) {
  const Shape& shape = lowering.value(call.inputs[0]).shape;
  if (shape.empty() || NormalizedAxis(lowering, call) != static_cast<int64_t>(shape.size()) - 1) {
    lowering.Fail("nn.layer_norm over an axis other than the last");
  }
  const int64_t channels = shape.back();
  const Shape rows_by_channels = {NumElements(shape) / std::max<int64_t>(channels, 1), channels};
  const memory::desc view = PlainDesc(rows_by_channels);
  const dnnl::layer_normalization_forward::desc desc(
      dnnl::prop_kind::forward_inference, view, static_cast<float>(call.call->attrs.GetFloat("epsilon")),
      dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift);
  const dnnl::layer_normalization_forward::primitive_desc primitive(desc, lowering.engine());
  const memory result = lowering.Define(call.output, PlainDesc(shape));
  lowering.AddStep(dnnl::layer_normalization_forward(primitive),
                   {{DNNL_ARG_SRC, lowering.GetViewed(call.inputs[0], view)},
                    {DNNL_ARG_SCALE, lowering.GetPlain(call.inputs[1])},
                    {DNNL_ARG_SHIFT, lowering.GetPlain(call.inputs[2])},
                    {DNNL_ARG_DST, lowering.View(result, view)}});
}

void LowerBatchNorm(Lowering& lowering, const FlatCall& call) {
  const Shape& shape = lowering.value(call.inputs[0]).shape;
  if (shape.size() < 2 || shape.size() > 5 || NormalizedAxis(lowering, call) != 1) {
    lowering.Fail("nn.batch_norm other than on axis 1 of 2-D to 5-D data");
  }
  const memory source = lowering.Home(call.inputs[0]);
  const dnnl::batch_normalization_forward::desc desc(
      dnnl::prop_kind::forward_inference, source.get_desc(), static_cast<float>(call.call->attrs.GetFloat("epsilon")),
      dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
          dnnl::normalization_flags::use_shift);
  const dnnl::batch_normalization_forward::primitive_desc primitive(desc, lowering.engine());
  const memory result = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::batch_normalization_forward(primitive),
                   {{DNNL_ARG_SRC, source},
                    {DNNL_ARG_SCALE, lowering.GetPlain(call.inputs[1])},
                    {DNNL_ARG_SHIFT, lowering.GetPlain(call.inputs[2])},
                    {DNNL_ARG_MEAN, lowering.GetPlain(call.inputs[3])},
                    {DNNL_ARG_VARIANCE, lowering.GetPlain(call.inputs[4])},
                    {DNNL_ARG_DST, result}});
}

}  // namespace

bool PlainSoftmaxIsOptimized(bool log, const Shape& shape, int64_t axis, const dnnl::engine& engine) {
  const memory::desc plain = PlainDesc(shape);
  try {
    const dnnl::softmax_v2_forward::desc desc(dnnl::prop_kind::forward_inference,
                                              log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate,
                                              plain, plain, static_cast<int>(axis));
    return !IsReference(dnnl::softmax_v2_forward::primitive_desc(desc, engine));
  } catch (const dnnl::error&) {
    return false;
  }
}

void LowerNormalization(Lowering& lowering, const FlatCall& call) {
  if (call.op == "nn.layer_norm") return LowerLayerNorm(lowering, call);
  if (call.op == "nn.batch_norm") return LowerBatchNorm(lowering, call);
  LowerSoftmax(lowering, call);
}

}  // namespace collage::onednn
