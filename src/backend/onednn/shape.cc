// Shape ops: reshape, flatten, squeeze and expand_dims (and the identities copy and
// nn.dropout) cost nothing: the result is a view of the input's plain data. A transpose is
// one reorder from a permuted-strides view of the plain input (done at compile time for a
// constant). Concatenation is one oneDNN concat over the inputs' current layouts, or, where
// those have only oneDNN's reference kernel (a plain input among blocked ones: Inception's and
// DenseNet's blocks), over all inputs in the layout of the largest, or all plain; of plain
// inputs it writes a plain result (left to choose, oneDNN may permute extent-1 axes, a layout
// later binary primitives only run in their slow reference kernel). Where the concatenation
// is planned in place (concat_in_place.h), it is a view of its group's buffer instead.
#include <algorithm>
#include <optional>

#include "backend/onednn/implementation.h"
#include "backend/onednn/layout_like.h"
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
  if (const int group = lowering.ConcatGroupOfResult(call.output); group >= 0) {
    if (const std::optional<memory> view = lowering.ConcatView(group, call.inputs.size())) {
      return lowering.Alias(call.output, *view);
    }
  }
  const int64_t rank = static_cast<int64_t>(ToDims(lowering.value(call.output).shape).size());
  int64_t axis = call.call->attrs.GetInt("axis");
  if (axis < 0) axis += rank;
  const auto describe = [&](const std::vector<memory::desc>& descs) {
    std::optional<dnnl::concat::primitive_desc> primitive;
    const bool all_plain = std::all_of(descs.begin(), descs.end(), [&](const memory::desc& desc) {
      return desc == PlainDesc(desc.dims());
    });
    try {
      primitive = all_plain ? dnnl::concat::primitive_desc(PlainDesc(lowering.value(call.output).shape),
                                                           static_cast<int>(axis), descs, lowering.engine())
                            : dnnl::concat::primitive_desc(static_cast<int>(axis), descs, lowering.engine());
    } catch (const dnnl::error&) {
    }
    return primitive;
  };
  // Candidate layouts, in order: the inputs' current ones; all in the layout of the input
  // holding most elements; all plain. The first with an optimized kernel wins.
  std::vector<memory::desc> current, plain;
  size_t largest = 0;
  for (int input : call.inputs) {
    current.push_back(lowering.Home(input).get_desc());
    plain.push_back(PlainDesc(lowering.value(input).shape));
    if (current.back().get_size() > current[largest].get_size()) largest = current.size() - 1;
  }
  std::vector<std::vector<memory::desc>> candidates = {current};
  std::vector<memory::desc> unified;
  for (const memory::desc& desc : current) {
    if (const std::optional<memory::desc> like = LayoutLike(current[largest], desc.dims())) unified.push_back(*like);
  }
  if (unified.size() == current.size()) candidates.push_back(unified);
  candidates.push_back(plain);

  std::optional<dnnl::concat::primitive_desc> primitive;
  std::vector<memory::desc> chosen;
  for (const std::vector<memory::desc>& descs : candidates) {
    std::optional<dnnl::concat::primitive_desc> candidate = describe(descs);
    if (!candidate) continue;
    if (!primitive || (IsReference(*primitive) && !IsReference(*candidate))) {
      primitive = candidate;
      chosen = descs;
    }
    if (!IsReference(*primitive)) break;
  }
  if (!primitive) lowering.Fail("concatenate: oneDNN has no concat primitive for these inputs");
  std::unordered_map<int, memory> args;
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = lowering.Get(call.inputs[i], chosen[i]);
  }
  args[DNNL_ARG_DST] = lowering.Define(call.output, primitive->dst_desc());
  lowering.AddStep(dnnl::concat(*primitive), std::move(args));
}

}  // namespace collage::onednn
