// Element-wise ops: a unary op with an eltwise algorithm runs on its input's current layout
// (plain where that layout has only oneDNN's reference kernel); binary arithmetic (and
// nn.bias_add) is one oneDNN binary primitive on the full operand's current layout: the other
// operand is read in that same layout, described exactly as the full one when it has the full
// shape (oneDNN deems layouts that differ only in the strides of extent-1 axes equal, but its
// jit binary kernels then refuse the pair and its reference kernel is ~100x slower), and as its
// own shape in the same format when it is broadcast (a plain broadcast operand next to a
// blocked one also sends oneDNN to its reference kernel: EfficientNet's squeeze-and-excitation
// scales, DenseNet's batch norms after concatenations). Both operands go plain when the
// blocked pair has no optimized kernel. A binary op computes its epilogue too (a per-channel
// bias as a binary post-op, unary ops as eltwise post-ops): DenseNet's batch norm + relu after
// each concatenation is one pass over the tensor instead of three.
#include <optional>

#include "backend/onednn/implementation.h"
#include "backend/onednn/kernel_probe.h"
#include "backend/onednn/layout_like.h"
#include "backend/onednn/op_families.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {

std::optional<dnnl::algorithm> BinaryAlgorithm(const std::string& op) {
  using dnnl::algorithm;
  if (op == "add" || op == "nn.bias_add") return algorithm::binary_add;
  if (op == "subtract") return algorithm::binary_sub;
  if (op == "multiply") return algorithm::binary_mul;
  if (op == "divide") return algorithm::binary_div;
  if (op == "maximum") return algorithm::binary_max;
  if (op == "minimum") return algorithm::binary_min;
  return std::nullopt;
}

bool PlainBinaryIsOptimized(dnnl::algorithm algorithm, const Shape& first, const Shape& second, const Shape& result,
                            const dnnl::engine& engine) {
  const size_t rank = result.size();
  try {
    const dnnl::binary::primitive_desc primitive(
        {algorithm, PlainDesc(WithLeadingOnes(first, rank)), PlainDesc(WithLeadingOnes(second, rank)),
         memory::desc(ToDims(result), memory::data_type::f32, memory::format_tag::any)},
        engine);
    return !IsReference(primitive);
  } catch (const dnnl::error&) {
    return false;
  }
}

namespace {

struct BinaryKind {
  dnnl::algorithm algorithm;
  bool commutative;
};

BinaryKind BinaryKindOf(const Lowering& lowering, const std::string& op) {
  const std::optional<dnnl::algorithm> algorithm = BinaryAlgorithm(op);
  if (!algorithm) lowering.Fail("op " + op + " is not a binary op");
  return {*algorithm, op == "add" || op == "nn.bias_add" || op == "multiply" || op == "maximum" || op == "minimum"};
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
  const auto describe = [&](const memory::desc& source) {
    return dnnl::eltwise_forward::primitive_desc({dnnl::prop_kind::forward_inference, spec.algorithm, source, spec.alpha,
                                                  spec.beta},
                                                 lowering.engine());
  };
  memory source = lowering.Home(call.inputs[0]);
  dnnl::eltwise_forward::primitive_desc primitive = describe(source.get_desc());
  // A blocked layout whose channels do not fill the last block (an SE block's 20 channels in
  // blocks of 8) has only the reference kernel.
  const memory::desc plain = PlainDesc(lowering.value(call.inputs[0]).shape);
  if (IsReference(primitive) && source.get_desc() != plain) {
    dnnl::eltwise_forward::primitive_desc on_plain = describe(plain);
    if (!IsReference(on_plain)) {
      primitive = on_plain;
      source = lowering.GetPlain(call.inputs[0]);
    }
  }
  const memory result = lowering.Define(call.output, primitive.dst_desc());
  lowering.AddStep(dnnl::eltwise_forward(primitive), {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, result}});
}

bool LowerBinary(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue) {
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
  const bool other_same_shape = lowering.value(other).shape == out;
  const memory::desc plain_full = PlainDesc(WithLeadingOnes(lowering.value(full).shape, rank));
  const memory::desc plain_other = PlainDesc(WithLeadingOnes(other_shape, rank));
  const memory::desc dst_any(ToDims(out), memory::data_type::f32, memory::format_tag::any);
  // The epilogue's bias (one value per channel, axis 1) is a binary post-op read from its
  // plain data; its eltwise post-ops follow.
  memory::desc bias_desc;
  dnnl::post_ops post_ops;
  if (epilogue.bias >= 0) {
    Shape bias_shape(rank, 1);
    bias_shape.at(1) = out.at(1);
    bias_desc = PlainDesc(bias_shape);
    post_ops.append_binary(dnnl::algorithm::binary_add, bias_desc);
  }
  AppendPostOps(epilogue, post_ops);
  dnnl::primitive_attr attr;
  attr.set_post_ops(post_ops);
  const auto describe = [&](const memory::desc& src0, const memory::desc& src1) {
    std::optional<dnnl::binary::primitive_desc> primitive;
    try {
      primitive = dnnl::binary::primitive_desc({kind.algorithm, src0, src1, dst_any}, attr, lowering.engine());
    } catch (const dnnl::error&) {
    }
    return primitive;
  };

  // First the full operand's current (blocked) layout, the other operand read in the same
  // layout; then both plain. The first that has an optimized kernel wins.
  const memory::desc home = same_shape ? lowering.Home(full).get_desc() : plain_full;
  const std::optional<memory::desc> other_like_home =
      other_same_shape ? std::optional<memory::desc>(home) : LayoutLike(home, plain_other.dims());
  std::optional<dnnl::binary::primitive_desc> primitive;
  bool blocked = false;
  if (other_like_home) {
    primitive = describe(home, *other_like_home);
    blocked = primitive.has_value();
  }
  if (!primitive || IsReference(*primitive)) {
    std::optional<dnnl::binary::primitive_desc> plain = describe(plain_full, plain_other);
    if (plain && (!primitive || !IsReference(*plain))) {
      primitive = plain;
      blocked = false;
    }
  }
  const bool fused = !epilogue.calls.empty();
  if (fused && (!primitive || IsReference(*primitive))) return false;
  if (!primitive) lowering.Fail(call.op + ": oneDNN has no binary primitive for these operands");

  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC_0] = blocked && same_shape ? lowering.Home(full) : lowering.GetViewed(full, plain_full);
  args[DNNL_ARG_SRC_1] = !blocked          ? lowering.GetViewed(other, plain_other)
                         : other_same_shape ? lowering.View(lowering.Get(other, home), home)
                                            : lowering.GetViewed(other, plain_other, *other_like_home);
  if (epilogue.bias >= 0) {
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = lowering.GetViewed(epilogue.bias, bias_desc);
  }
  args[DNNL_ARG_DST] = lowering.Define(fused ? epilogue.result : call.output, primitive->dst_desc());
  lowering.AddStep(dnnl::binary(*primitive), std::move(args));
  return true;
}

}  // namespace collage::onednn
