// nn.dense, nn.matmul and nn.batch_matmul as one oneDNN matmul each: operands are plain
// (row-major) views of the data, the right operand described with strides when it is
// transposed; a constant right operand is reordered once into the layout matmul prefers.
// The bias and the post-ops of the epilogue are fused.
#include <algorithm>

#include "backend/onednn/primitive_builders.h"
#include "backend/onednn/quantized_operands.h"

namespace collage::onednn {
namespace {

// The operand and result geometry of one matmul: src (.., M, K) x weights (.., K, N) = dst
// (.., M, N), all of the same rank, batch dimensions broadcasting.
struct MatmulGeometry {
  memory::dims src;
  memory::dims weights;
  memory::dims weights_strides;  // of the weight data as stored
  memory::dims dst;
};

memory::dims RowMajorStrides(const memory::dims& dims) {
  memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * std::max<memory::dim>(dims[i], 1);
  return strides;
}

// Weights stored as (.., N, K) read as (.., K, N).
memory::dims TransposedStrides(const memory::dims& stored) {
  memory::dims strides = RowMajorStrides(stored);
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return strides;
}

memory::dims PadToRank(memory::dims dims, size_t rank) {
  dims.insert(dims.begin(), rank - dims.size(), 1);
  return dims;
}

MatmulGeometry DenseGeometry(const Shape& data, const Shape& weight) {
  const int64_t depth = data.back();
  const int64_t rows = NumElements(Shape(data.begin(), data.end() - 1));
  const int64_t columns = weight[0];
  return {{rows, depth}, {depth, columns}, TransposedStrides({columns, depth}), {rows, columns}};
}

MatmulGeometry BatchMatmulGeometry(const Shape& a, const Shape& b, bool transpose_b) {
  const int64_t columns = transpose_b ? b[1] : b[2];
  MatmulGeometry geometry;
  geometry.src = {a[0], a[1], a[2]};
  geometry.weights = {b[0], a[2], columns};
  geometry.weights_strides = transpose_b ? TransposedStrides({b[0], b[1], b[2]}) : RowMajorStrides(geometry.weights);
  geometry.dst = {std::max(a[0], b[0]), a[1], columns};
  return geometry;
}

// numpy.matmul: a 1-D a is a row (1, K), a 1-D b a column (K, 1); batch dims broadcast.
MatmulGeometry NumpyMatmulGeometry(const Shape& a, const Shape& b) {
  memory::dims src(a.begin(), a.end());
  memory::dims weights(b.begin(), b.end());
  if (src.size() == 1) src = {1, a[0]};
  if (weights.size() == 1) weights = {b[0], 1};
  const size_t rank = std::max(src.size(), weights.size());
  src = PadToRank(src, rank);
  weights = PadToRank(weights, rank);
  memory::dims dst(rank);
  for (size_t i = 0; i + 2 < rank; ++i) dst[i] = src[i] == 1 ? weights[i] : src[i];
  dst[rank - 2] = src[rank - 2];
  dst[rank - 1] = weights[rank - 1];
  return {src, weights, RowMajorStrides(weights), dst};
}

MatmulGeometry GeometryOf(const Lowering& lowering, const FlatCall& call) {
  const Shape& a = lowering.value(call.inputs[0]).shape;
  const Shape& b = lowering.value(call.inputs[1]).shape;
  if (call.op == "nn.dense") return DenseGeometry(a, b);
  if (call.op == "nn.batch_matmul") return BatchMatmulGeometry(a, b, call.call->attrs.GetInt("transpose_b") != 0);
  return NumpyMatmulGeometry(a, b);
}

// nn.dense in int8: the activation quantized by its calibrated scale, the constant (N, K)
// weights by one symmetric s8 scale per output column, s32 accumulation, the result dequantized
// to f32 by the output scales before the epilogue's post-ops.
void LowerQuantizedDense(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue,
                         const QuantizationParameters& activation) {
  const MatmulGeometry geometry = GeometryOf(lowering, call);
  const Tensor& weights = lowering.value(call.inputs[1]).constant;
  const QuantizedWeights quantized = QuantizeConstantWeights(weights, activation);
  const auto integer = activation.dtype == DType::kU8 ? memory::data_type::u8 : memory::data_type::s8;
  const auto f32 = memory::data_type::f32;
  const memory::desc src_desc(geometry.src, integer, RowMajorStrides(geometry.src));
  const memory::desc weights_any(geometry.weights, memory::data_type::s8, memory::format_tag::any);
  const memory::dims bias_dims = {1, geometry.dst.back()};
  const memory::desc bias_desc = epilogue.bias >= 0 ? memory::desc(bias_dims, f32, RowMajorStrides(bias_dims)) : memory::desc();
  const memory::desc dst_desc(geometry.dst, f32, RowMajorStrides(geometry.dst));
  dnnl::primitive_attr attr = MakeAttr(epilogue);
  attr.set_output_scales(1 << 1, quantized.output_scales);
  const dnnl::matmul::primitive_desc primitive(dnnl::matmul::desc(src_desc, weights_any, bias_desc, dst_desc), attr,
                                               lowering.engine());
  const memory::dims data_dims = ToDims(lowering.value(call.inputs[0]).shape);
  const memory::desc plain_integer(data_dims, integer, RowMajorStrides(data_dims));
  const memory::desc stored(geometry.weights, memory::data_type::s8, geometry.weights_strides);
  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = lowering.View(lowering.GetQuantized(call.inputs[0], plain_integer, activation), src_desc);
  args[DNNL_ARG_WEIGHTS] = PackQuantizedWeights(lowering, weights, quantized.scales, stored, primitive.weights_desc());
  if (epilogue.bias >= 0) args[DNNL_ARG_BIAS] = ScaledBias(lowering, epilogue.bias, quantized.output_scales, bias_desc);
  const memory result = PrepareDestination(lowering, epilogue, PlainDesc(lowering.value(epilogue.result).shape));
  args[DNNL_ARG_DST] = lowering.View(result, dst_desc);
  lowering.AddStep(dnnl::matmul(primitive), std::move(args));
}

}  // namespace

void LowerMatmul(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue) {
  const std::optional<QuantizationParameters> quantization = lowering.ActivationQuantizationOf(call.inputs[0]);
  if (call.op == "nn.dense" && quantization && lowering.partition().IsConstant(call.inputs[1])) {
    LowerQuantizedDense(lowering, call, epilogue, *quantization);
    return;
  }
  const MatmulGeometry geometry = GeometryOf(lowering, call);
  const int weights = call.inputs[1];
  const auto f32 = memory::data_type::f32;
  const memory::desc src_desc(geometry.src, f32, RowMajorStrides(geometry.src));
  const memory::desc stored_weights(geometry.weights, f32, geometry.weights_strides);
  // Constant weights go into the layout matmul prefers, once; others are read as stored.
  const bool constant_weights = lowering.partition().IsConstant(weights);
  const memory::desc weights_desc =
      constant_weights ? memory::desc(geometry.weights, f32, memory::format_tag::any) : stored_weights;
  memory::dims bias_dims(geometry.dst.size(), 1);
  bias_dims.back() = geometry.dst.back();
  const memory::desc bias_desc = epilogue.bias >= 0 ? memory::desc(bias_dims, f32, RowMajorStrides(bias_dims)) : memory::desc();
  const memory::desc dst_desc(geometry.dst, f32, RowMajorStrides(geometry.dst));

  const dnnl::matmul::desc desc(src_desc, weights_desc, bias_desc, dst_desc);
  const dnnl::matmul::primitive_desc primitive(desc, MakeAttr(epilogue), lowering.engine());

  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = lowering.GetViewed(call.inputs[0], src_desc);
  args[DNNL_ARG_WEIGHTS] = lowering.GetViewed(weights, stored_weights, primitive.weights_desc());
  if (epilogue.bias >= 0) args[DNNL_ARG_BIAS] = lowering.GetViewed(epilogue.bias, bias_desc);
  const memory result =
      PrepareDestination(lowering, epilogue, PlainDesc(lowering.value(epilogue.result).shape));
  args[DNNL_ARG_DST] = lowering.View(result, dst_desc);
  lowering.AddStep(dnnl::matmul(primitive), std::move(args));
}

}  // namespace collage::onednn
