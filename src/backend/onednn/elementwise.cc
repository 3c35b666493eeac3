// Element-wise ops: a unary op with an eltwise algorithm runs on its input's current layout;
// binary arithmetic (and nn.bias_add) is one oneDNN binary primitive: an operand of the full
// result shape is read in the other full operand's layout (described exactly as that one:
// oneDNN deems layouts that differ only in the strides of extent-1 axes equal, but its jit
// binary kernels then refuse the pair and its reference kernel is ~100x slower), a broadcast
// operand as a plain tensor with 1s on its broadcast axes.
#include "backend/onednn/op_families.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {
namespace {

struct BinaryKind {
  dnnl::algorithm algorithm;
  bool commutative;
};

BinaryKind BinaryKindOf(const Lowering& lowering, const std::string& op) {
  using dnnl::algorithm;
  if (op == "add" || op == "nn.bias_add") return {algorithm::binary_add, true};
  if (op == "subtract") return {algorithm::binary_sub, false};
  if (op == "multiply") return {algorithm::binary_mul, true};
  if (op == "divide") return {algorithm::binary_div, false};
  if (op == "maximum") return {algorithm::binary_max, true};
  if (op == "minimum") return {algorithm::binary_min, true};
  lowering.Fail("op " + op + " is not a binary op");
}

// The shape nn.bias_add's bias broadcasts as: its values on `axis`, 1 elsewhere.
Shape BiasShape(const Lowering& lowering, const FlatCall& call) {
  const Shape& data = lowering.value(call.inputs[0]).shape;
  const int64_t rank = static_cast<int64_t>(data.size());
  int64_t axis = call.call->attrs.GetInt("axis");
  if (axis < 0) axis += rank;
  Shape shape(data.size(), 1);
  shape.at(static_cast<size_t>(axis)) = data.at(static_cast<size_t>(axis));
  return shape;
}

}  // namespace

void LowerEltwise(Lowering& lowering, const FlatCall& call, const EltwiseSpec& spec) {
  const memory source = lowering.Home(call.inputs[0]);
  const dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, spec.algorithm, source.get_desc(),
                                         spec.alpha, spec.beta);
  const dnnl::eltwise_forward::primitive_desc primitive(desc, lowering.engine());
  const memory result = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::eltwise_forward(primitive), {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, result}});
}

void LowerBinary(Lowering& lowering, const FlatCall& call) {
  const BinaryKind kind = BinaryKindOf(lowering, call.op);
  const Shape& out = lowering.value(call.output).shape;
  const size_t rank = ToDims(out).size();
  int full = call.inputs[0];
  int other = call.inputs[1];
  Shape other_shape = call.op == "nn.bias_add" ? BiasShape(lowering, call) : lowering.value(other).shape;
  if (WithLeadingOnes(lowering.value(full).shape, rank) != ToDims(out)) {
    if (!kind.commutative || call.op == "nn.bias_add") {
      lowering.Fail(call.op + " whose first operand is broadcast (oneDNN broadcasts the second only)");
    }
    std::swap(full, other);
    other_shape = lowering.value(other).shape;
    if (WithLeadingOnes(lowering.value(full).shape, rank) != ToDims(out)) {
      lowering.Fail(call.op + " with both operands broadcast");
    }
  }
  const bool same_shape = lowering.value(full).shape == out;
  // Blocked layouts when both operands have the result's shape; plain ones around broadcasting.
  memory src0 = same_shape ? lowering.Home(full) : lowering.GetViewed(full, PlainDesc(WithLeadingOnes(lowering.value(full).shape, rank)));
  memory src1 = lowering.value(other).shape == out
                    ? lowering.View(lowering.Get(other, src0.get_desc()), src0.get_desc())
                    : lowering.GetViewed(other, PlainDesc(WithLeadingOnes(other_shape, rank)));
  const memory::desc dst_any(ToDims(out), memory::data_type::f32, memory::format_tag::any);
  dnnl::binary::primitive_desc primitive;
  try {
    primitive = dnnl::binary::primitive_desc({kind.algorithm, src0.get_desc(), src1.get_desc(), dst_any}, lowering.engine());
  } catch (const dnnl::error&) {
    // No implementation broadcasts into this blocked layout: go plain.
    src0 = lowering.GetPlain(full);
    primitive = dnnl::binary::primitive_desc({kind.algorithm, src0.get_desc(), src1.get_desc(), dst_any}, lowering.engine());
  }
  const memory result = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::binary(primitive), {{DNNL_ARG_SRC_0, src0}, {DNNL_ARG_SRC_1, src1}, {DNNL_ARG_DST, result}});
}

}  // namespace collage::onednn
