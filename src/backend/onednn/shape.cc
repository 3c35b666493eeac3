// Shape ops: reshape, flatten, squeeze and expand_dims (and the identities copy and
// nn.dropout) cost nothing: the result is a view of the input's plain data. Concatenation is
// one oneDNN concat over the inputs' current layouts (plain ones when those cannot be mixed).
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {

void LowerReshape(Lowering& lowering, const FlatCall& call) {
  const memory::desc view = PlainDesc(lowering.value(call.output).shape);
  lowering.Alias(call.output, lowering.GetViewed(call.inputs[0], view));
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
    const dnnl::concat::primitive_desc primitive(static_cast<int>(axis), descs, lowering.engine());
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
