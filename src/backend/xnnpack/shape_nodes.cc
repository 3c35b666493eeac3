// Softmax, constant padding and the reshapes. nn.softmax runs over XNNPACK's innermost axis:
// the last axis, or the channel axis of a 4-D tensor (NHWC). nn.pad in constant mode is a
// static constant pad with its widths permuted like the data. reshape, flatten, squeeze and
// expand_dims become a static reshape when neither side's NHWC layout reorders elements
// (see layout.h).
#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "backend/xnnpack/support_rules.h"
#include "backend/xnnpack/xnnpack_status.h"

namespace collage::xnnpack {

std::string SoftmaxRule(const CallNode& call) {
  const size_t rank = TensorTypeOf(call.args[0]).shape.size();
  const int64_t axis = NormalizeAxis(call.attrs.GetInt("axis"), rank);
  const int64_t innermost = rank == 4 ? 1 : static_cast<int64_t>(rank) - 1;
  if (axis != innermost) return "XNNPACK's softmax runs over the innermost axis only (NHWC channels for 4-D)";
  return "";
}

void DefineSoftmax(SubgraphBuilder& builder, const CallNode& call) {
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_softmax(builder.subgraph(), input, output, 0), "defining nn.softmax");
}

std::string PadRule(const CallNode& call) {
  if (call.attrs.GetString("mode") != "constant") return "only constant padding maps to XNNPACK";
  for (int64_t width : call.attrs.GetInts("pad_width")) {
    if (width < 0) return "negative widths (cropping) do not map to XNNPACK's pad";
  }
  return "";
}

void DefinePad(SubgraphBuilder& builder, const CallNode& call) {
  const std::vector<int64_t>& widths = call.attrs.GetInts("pad_width");  // begins, then ends
  const size_t rank = widths.size() / 2;
  // The widths as shapes, so that SubgraphShape permutes them like the data.
  const Shape begins = SubgraphShape(Shape(widths.begin(), widths.begin() + static_cast<int64_t>(rank)));
  const Shape ends = SubgraphShape(Shape(widths.begin() + static_cast<int64_t>(rank), widths.end()));
  const std::vector<size_t> pre(begins.begin(), begins.end());
  const std::vector<size_t> post(ends.begin(), ends.end());
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_static_constant_pad(builder.subgraph(), pre.data(), post.data(),
                                             static_cast<float>(call.attrs.GetFloat("pad_value")), input, output, 0),
              "defining nn.pad");
}

std::string ReshapeRule(const CallNode& call) {
  if (!NhwcKeepsElementOrder(TensorTypeOf(call.args[0]).shape) ||
      !NhwcKeepsElementOrder(AsTensorType(call.checked_type())->shape)) {
    return "a 4-D side with several channels and pixels would need a transpose out of NHWC";
  }
  return "";
}

void DefineReshape(SubgraphBuilder& builder, const CallNode& call) {
  const Shape shape = SubgraphShape(AsTensorType(call.checked_type())->shape);
  const std::vector<size_t> dims(shape.begin(), shape.end());
  const uint32_t input = builder.ValueOf(call.args[0]);
  const uint32_t output = builder.DefineResult(call);
  CheckStatus(xnn_define_static_reshape(builder.subgraph(), dims.size(), dims.data(), input, output, 0),
              "defining " + call.op()->name);
}

}  // namespace collage::xnnpack
