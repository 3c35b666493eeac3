// 2-D pooling as one oneDNN pooling_v2 primitive on the input's current (usually blocked)
// layout, or on channel blocks where only a generic kernel takes the current one. Windowed
// pools keep their strides, dilation and padding; torch's ceil_mode becomes extra end padding
// (ignored by max and by averages that exclude padding). Global pools are one window over the
// plane; adaptive average pools when the output size divides the input.
#include <algorithm>

#include "op/nn_common.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {
namespace {

struct PoolWindow {
  dnnl::algorithm algorithm = dnnl::algorithm::pooling_max;
  memory::dims kernel{1, 1};
  memory::dims strides{1, 1};
  memory::dims dilation{0, 0};  // gaps between taps, oneDNN style
  memory::dims pad_begin{0, 0};
  memory::dims pad_end{0, 0};
};

PoolWindow WindowedPool(const Lowering& lowering, const FlatCall& call, const Shape& in, const Shape& out) {
  const Attrs& attrs = call.call->attrs;
  const Window2D window = GetWindow2D(attrs);
  const std::vector<int64_t>& pool_size = attrs.GetInts("pool_size");
  const bool average = call.op == "nn.avg_pool2d";
  const bool include_pad = average && attrs.GetInt("count_include_pad") != 0;
  PoolWindow pool;
  pool.algorithm = !average      ? dnnl::algorithm::pooling_max
                   : include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                 : dnnl::algorithm::pooling_avg_exclude_padding;
  for (int axis = 0; axis < 2; ++axis) {
    pool.kernel[axis] = pool_size[axis];
    pool.strides[axis] = window.strides[axis];
    pool.dilation[axis] = window.dilation[axis] - 1;
    pool.pad_begin[axis] = window.pad_begin[axis];
    // With ceil_mode the last window may reach past the end padding: pad further.
    const int64_t reach = (out[2 + axis] - 1) * window.strides[axis] + (pool_size[axis] - 1) * window.dilation[axis] +
                          1 - in[2 + axis] - window.pad_begin[axis];
    pool.pad_end[axis] = std::max(window.pad_end[axis], reach);
    if (include_pad && pool.pad_end[axis] > window.pad_end[axis]) {
      lowering.Fail("nn.avg_pool2d with count_include_pad and a ceil_mode window past the padding");
    }
  }
  return pool;
}

PoolWindow WholePlanePool(const Lowering& lowering, const FlatCall& call, const Shape& in, const Shape& out) {
  PoolWindow pool;
  pool.algorithm = call.op == "nn.global_max_pool2d" ? dnnl::algorithm::pooling_max
                                                     : dnnl::algorithm::pooling_avg_exclude_padding;
  for (int axis = 0; axis < 2; ++axis) {
    if (out[2 + axis] == 0 || in[2 + axis] % out[2 + axis] != 0) {
      lowering.Fail(call.op + " from " + std::to_string(in[2 + axis]) + " to " + std::to_string(out[2 + axis]) +
                    " (only output sizes dividing the input)");
    }
    pool.kernel[axis] = in[2 + axis] / out[2 + axis];
    pool.strides[axis] = pool.kernel[axis];
  }
  return pool;
}

}  // namespace

void LowerPooling(Lowering& lowering, const FlatCall& call) {
  const int data = call.inputs[0];
  const Shape& in = lowering.value(data).shape;
  const Shape& out = lowering.value(call.output).shape;
  if (in.size() != 4) lowering.Fail(call.op + " on " + std::to_string(in.size()) + "-D data (NCHW only)");
  const bool windowed = call.op == "nn.max_pool2d" || call.op == "nn.avg_pool2d";
  const PoolWindow pool = windowed ? WindowedPool(lowering, call, in, out) : WholePlanePool(lowering, call, in, out);

  const memory::desc dst_any(ToDims(out), memory::data_type::f32, memory::format_tag::any);
  const auto describe = [&](const memory::desc& source) {
    const dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, pool.algorithm, source, dst_any,
                                              pool.strides, pool.kernel, pool.dilation, pool.pad_begin, pool.pad_end);
    return dnnl::pooling_v2_forward::primitive_desc(desc, lowering.engine());
  };
  // On the input's current layout, unless only a generic kernel takes it there: the pools of a
  // plain input ("simple_nchw") took 4-7 ms each in Inception's blocks, where a reorder to
  // channel blocks and the jit kernel take a few percent of that.
  memory source = lowering.Home(data);
  dnnl::pooling_v2_forward::primitive_desc primitive = describe(source.get_desc());
  for (const memory::format_tag blocked : {memory::format_tag::aBcd8b, memory::format_tag::aBcd16b}) {
    if (IsJit(primitive)) break;
    const memory::desc candidate(ToDims(in), memory::data_type::f32, blocked);
    try {
      const dnnl::pooling_v2_forward::primitive_desc on_blocks = describe(candidate);
      if (!IsJit(on_blocks)) continue;
      primitive = on_blocks;
      source = lowering.Get(data, candidate);
    } catch (const dnnl::error&) {
    }
  }
  const memory result = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::pooling_v2_forward(primitive), {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, result}});
}

}  // namespace collage::onednn
