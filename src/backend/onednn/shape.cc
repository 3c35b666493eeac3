// Shape ops: reshape, flatten, squeeze and expand_dims (and the identities copy and
// nn.dropout) cost nothing: the result is a view of the input's plain data. A transpose is
// one reorder from a permuted-strides view of the plain input (done at compile time for a
// constant). Concatenation is one oneDNN concat over the inputs' current layouts (plain ones
// when those cannot be mixed); of plain inputs it writes a plain result (left to choose, oneDNN
// may permute extent-1 axes, a layout later binary primitives only run in their slow
// reference kernel).
#include <algorithm>

#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {

void LowerReshape(Lowering& lowering, const FlatCall& call) {
  const memory::desc view = PlainDesc(lowering.value(call.output).shape);
  lowering.Alias(call.output, lowering.GetViewed(call.inputs[0], view));
}

void LowerTranspose(Lowering& lowering, const FlatCall& call) {
  const Shape& in = lowering.value(call.inputs[0]).shape;
  const Shape& out = lowering.value(call.output).shape;
  if (in.empty()) return LowerReshape(lowering, call);
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes = call.call->attrs.GetInts("axes");
  if (axes.empty()) {
    for (int64_t axis = rank - 1; axis >= 0; --axis) axes.push_back(axis);
  }
  memory::dims in_strides(in.size(), 1);
  for (int64_t i = rank - 1; i > 0; --i) in_strides[i - 1] = in_strides[i] * std::max<int64_t>(in[i], 1);
  // Output dimension i walks input dimension axes[i].
  memory::dims strides;
  for (int64_t axis : axes) strides.push_back(in_strides[axis < 0 ? axis + rank : axis]);
  const memory::desc permuted(ToDims(out), memory::data_type::f32, strides);
  // Not scratch: an identity permutation leaves a view of the input.
  lowering.Alias(call.output, lowering.GetViewed(call.inputs[0], permuted, PlainDesc(out)));
}

void LowerConcat(Lowering& lowering, const FlatCall& call) {
  const int64_t rank = static_cast<int64_t>(ToDims(lowering.value(call.output).shape).size());
  int64_t axis = call.call->attrs.GetInt("axis");
  if (axis < 0) axis += rank;
  const auto build = [&](bool plain) {
    std::vector<memory> sources;
    std::vector<memory::desc> descs;
    for (int input : call.inputs) {
      sources.push_back(plain ? lowering.GetPlain(input) : lowering.Home(input));
      descs.push_back(sources.back().get_desc());
    }
    const memory::desc plain_result = PlainDesc(lowering.value(call.output).shape);
    const bool all_plain = std::all_of(descs.begin(), descs.end(), [&](const memory::desc& desc) {
      return desc == PlainDesc(desc.dims());
    });
    const dnnl::concat::primitive_desc primitive =
        all_plain ? dnnl::concat::primitive_desc(plain_result, static_cast<int>(axis), descs, lowering.engine())
                  : dnnl::concat::primitive_desc(static_cast<int>(axis), descs, lowering.engine());
    return std::make_pair(sources, primitive);
  };
  std::vector<memory> sources;
  dnnl::concat::primitive_desc primitive;
  try {
    std::tie(sources, primitive) = build(false);
  } catch (const dnnl::error&) {
    std::tie(sources, primitive) = build(true);
  }
  std::unordered_map<int, memory> args;
  for (size_t i = 0; i < sources.size(); ++i) args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = sources[i];
  args[DNNL_ARG_DST] = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::concat(primitive), std::move(args));
}

}  // namespace collage::onednn
