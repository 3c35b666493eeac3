// The fused ops that the decomposed attention forms are rewritten into:
//
//   nn.masked_softmax(data[, mask])  softmax over the last axis of the logits data * scale,
//                                    masked: an f32 mask broadcasting to data is added, a bool
//                                    mask selects `masked_value` where it is true.
//   nn.attention(query, key, value[, mask])
//                                    scaled-dot-product attention on views of its operands:
//                                    Q = transpose(reshape(query, query_shape), query_axes) is
//                                    (..., Sq, D), K = transpose(reshape(key, key_shape), key_axes)
//                                    is (..., D, Sk) (the transposed keys), V likewise (..., Sk, Dv);
//                                    the result is reshape(transpose(masked_softmax(Q K, mask) V,
//                                    output_axes), output_shape). The batch axes of Q, K and V are
//                                    equal.
//
// The shape and axes attributes let the op take the head splits and the merge of exported multi-head
// attention (reshape then transpose) as strides, without materializing the heads.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ir/op_registry.h"
#include "op/all_ops.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

// The optional mask (argument `index`): bool, or the dtype of `data`, broadcasting to `logits`.
void ExpectMask(const std::vector<Type>& arg_types, size_t index, const TensorTypeNode& data, const Shape& logits) {
  if (arg_types.size() <= index) return;
  const TensorTypeNode& mask = ExpectTensorArg(arg_types, index, "mask");
  if (mask.dtype != DType::kBool) ExpectSameDType(data, "data", mask, "mask");
  if (BroadcastShapes(mask.shape, logits) != logits) {
    throw TypeError("mask of shape " + ShapeToString(mask.shape) + " does not broadcast to the logits' shape " +
                    ShapeToString(logits));
  }
}

void ExpectArgCount(const std::vector<Type>& arg_types, size_t most) {
  if (arg_types.size() > most) {
    throw TypeError("takes at most " + std::to_string(most) + " arguments, got " + std::to_string(arg_types.size()));
  }
}

Type MaskedSoftmaxRelation(const std::vector<Type>& arg_types, const Attrs&) {
  ExpectArgCount(arg_types, 2);
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectFloat(data, "data");
  if (data.shape.empty()) throw TypeError("data must have rank >= 1");
  ExpectMask(arg_types, 1, data, data.shape);
  return TensorType(data.dtype, data.shape);
}

// The view of an operand through a permutation: view axis d is the operand's axis axes[d].
Shape PermutedShape(const Shape& operand, const std::vector<int64_t>& axes, const std::string& name) {
  const int64_t rank = static_cast<int64_t>(operand.size());
  std::vector<int64_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> identity(static_cast<size_t>(rank));
  std::iota(identity.begin(), identity.end(), 0);
  if (rank < 2 || sorted != identity) {
    throw TypeError(name + "_axes must be a permutation of the " + std::to_string(rank) + " axes of " + name +
                    " (rank >= 2)");
  }
  Shape shape;
  for (int64_t axis : axes) shape.push_back(operand[static_cast<size_t>(axis)]);
  return shape;
}

// The shapes of the attention's views: Q (..., Sq, D), K (..., D, Sk), V (..., Sk, Dv), the logits
// (..., Sq, Sk) and the product (..., Sq, Dv) before output_axes.
struct AttentionShapes {
  Shape query, key, value, logits, product;
  Shape Batch() const { return Shape(query.begin(), query.end() - 2); }
};

// `<name>_shape`, the shape an operand is viewed in (as many elements).
Shape ViewShape(const Shape& operand, const Attrs& attrs, const std::string& name) {
  const Shape shape = attrs.GetInts(name + "_shape");
  for (int64_t dim : shape) {
    if (dim < 0) throw TypeError(name + "_shape " + ShapeToString(shape) + " has a negative extent");
  }
  if (NumElements(shape) != NumElements(operand)) {
    throw TypeError(name + "_shape " + ShapeToString(shape) + " does not hold the " +
                    std::to_string(NumElements(operand)) + " elements of " + name + " " + ShapeToString(operand));
  }
  return shape;
}

AttentionShapes GetAttentionShapes(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& query = ExpectTensorArg(arg_types, 0, "query");
  const TensorTypeNode& key = ExpectTensorArg(arg_types, 1, "key");
  const TensorTypeNode& value = ExpectTensorArg(arg_types, 2, "value");
  ExpectFloat(query, "query");
  ExpectSameDType(query, "query", key, "key");
  ExpectSameDType(query, "query", value, "value");
  AttentionShapes s;
  s.query = PermutedShape(ViewShape(query.shape, attrs, "query"), attrs.GetInts("query_axes"), "query");
  s.key = PermutedShape(ViewShape(key.shape, attrs, "key"), attrs.GetInts("key_axes"), "key");
  s.value = PermutedShape(ViewShape(value.shape, attrs, "value"), attrs.GetInts("value_axes"), "value");
  if (s.key.size() != s.query.size() || s.value.size() != s.query.size()) {
    throw TypeError("query, key and value must have the same rank");
  }
  const Shape batch = s.Batch();
  const size_t rank = s.query.size();
  if (Shape(s.key.begin(), s.key.end() - 2) != batch || Shape(s.value.begin(), s.value.end() - 2) != batch) {
    throw TypeError("the batch axes of the transposed query " + ShapeToString(s.query) + ", key " +
                    ShapeToString(s.key) + " and value " + ShapeToString(s.value) + " differ");
  }
  if (s.key[rank - 2] != s.query[rank - 1]) {
    throw TypeError("the transposed key " + ShapeToString(s.key) + " does not have the query's depth " +
                    std::to_string(s.query[rank - 1]));
  }
  if (s.value[rank - 2] != s.key[rank - 1]) {
    throw TypeError("the transposed value " + ShapeToString(s.value) + " does not have the keys' length " +
                    std::to_string(s.key[rank - 1]));
  }
  s.logits = batch;
  s.logits.push_back(s.query[rank - 2]);
  s.logits.push_back(s.key[rank - 1]);
  s.product = batch;
  s.product.push_back(s.query[rank - 2]);
  s.product.push_back(s.value[rank - 1]);
  return s;
}

Type AttentionRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  ExpectArgCount(arg_types, 4);
  const AttentionShapes s = GetAttentionShapes(arg_types, attrs);
  const TensorTypeNode& query = ExpectTensorArg(arg_types, 0, "query");
  ExpectMask(arg_types, 3, query, s.logits);
  const Shape merged = PermutedShape(s.product, attrs.GetInts("output_axes"), "output");
  return TensorType(query.dtype, ViewShape(merged, attrs, "output"));
}

// Applies the scale and the mask (null: none) to the logits of `row` (flat row index of a
// [rows, extent] view whose mask index map is `mask_index`), then normalizes them in place.
void MaskedSoftmaxRow(std::vector<double>& row, int64_t first, const Tensor* mask,
                      const std::vector<int64_t>& mask_index, const Attrs& attrs) {
  const double scale = attrs.GetFloat("scale");
  double maximum = -INFINITY;
  for (size_t e = 0; e < row.size(); ++e) {
    double logit = row[e] * scale;
    if (mask != nullptr) {
      const double masked = mask->GetAsDouble(mask_index[static_cast<size_t>(first) + e]);
      logit = mask->dtype() == DType::kBool ? (masked != 0.0 ? attrs.GetFloat("masked_value") : logit) : logit + masked;
    }
    row[e] = logit;
    maximum = std::max(maximum, logit);
  }
  double sum = 0.0;
  for (double& logit : row) {
    logit = std::exp(logit - maximum);
    sum += logit;
  }
  for (double& logit : row) logit /= sum;
}

std::vector<Type> ArgTypes(const std::vector<Tensor>& args) {
  std::vector<Type> types;
  for (const Tensor& arg : args) types.push_back(TensorType(arg.dtype(), arg.shape()));
  return types;
}

// Checks the actual arguments (f32 operands, an f32 or bool mask) against `relation`.
Tensor CheckedResult(const std::string& op, const TypeRelation& relation, const std::vector<Tensor>& args,
                     size_t mask_index, const Attrs& attrs, const Type& result_type) {
  for (size_t i = 0; i < args.size(); ++i) {
    const bool allowed = args[i].dtype() == DType::kF32 || (i == mask_index && args[i].dtype() == DType::kBool);
    Check(allowed, op + ": the reference kernel supports f32 operands and an f32 or bool mask, argument " +
                       std::to_string(i) + " is " + std::string(DTypeName(args[i].dtype())));
  }
  Type actual;
  try {
    actual = relation(ArgTypes(args), attrs);
  } catch (const TypeError& error) {
    throw Error(op + ": " + error.what());
  }
  Check(TypeEqual(actual, result_type), op + ": the arguments give " + TypeToString(actual) + ", not " +
                                            TypeToString(result_type));
  return AllocateResult(result_type);
}

std::vector<Tensor> MaskedSoftmaxKernel(const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
  Tensor result = CheckedResult("nn.masked_softmax", MaskedSoftmaxRelation, args, 1, attrs, result_type);
  const Shape& shape = args[0].shape();
  const Tensor* mask = args.size() > 1 ? &args[1] : nullptr;
  const std::vector<int64_t> mask_index =
      mask != nullptr ? BroadcastIndexMap(mask->shape(), shape) : std::vector<int64_t>{};
  const int64_t extent = shape.back();
  const int64_t rows = extent == 0 ? 0 : NumElements(shape) / extent;
  const float* data = args[0].data<float>();
  float* out = result.data<float>();
  std::vector<double> row(static_cast<size_t>(extent));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t e = 0; e < extent; ++e) row[static_cast<size_t>(e)] = data[r * extent + e];
    MaskedSoftmaxRow(row, r * extent, mask, mask_index, attrs);
    for (int64_t e = 0; e < extent; ++e) out[r * extent + e] = static_cast<float>(row[static_cast<size_t>(e)]);
  }
  return {result};
}

// The flat index in an operand of shape `shape` of the view element `view_index` (a multi-index
// of the view through `axes`).
int64_t OperandIndex(const std::vector<int64_t>& view_index, const std::vector<int64_t>& axes, const Shape& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = 0; d < axes.size(); ++d) index[static_cast<size_t>(axes[d])] = view_index[d];
  return RavelIndex(index, shape);
}

std::vector<Tensor> AttentionKernel(const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
  Tensor result = CheckedResult("nn.attention", AttentionRelation, args, 3, attrs, result_type);
  const AttentionShapes s = GetAttentionShapes(ArgTypes(args), attrs);
  const Tensor* mask = args.size() > 3 ? &args[3] : nullptr;
  const std::vector<int64_t> mask_index =
      mask != nullptr ? BroadcastIndexMap(mask->shape(), s.logits) : std::vector<int64_t>{};
  const size_t rank = s.query.size();
  const int64_t batches = NumElements(s.Batch());
  const int64_t queries = s.query[rank - 2];
  const int64_t depth = s.query[rank - 1];
  const int64_t keys = s.key[rank - 1];
  const int64_t value_depth = s.value[rank - 1];
  const auto element = [&](size_t arg, const std::string& name, std::vector<int64_t> batch, int64_t row, int64_t col) {
    batch.push_back(row);
    batch.push_back(col);
    const Shape view = attrs.GetInts(name + "_shape");
    return static_cast<double>(args[arg].data<float>()[OperandIndex(batch, attrs.GetInts(name + "_axes"), view)]);
  };
  const Shape out_shape = PermutedShape(s.product, attrs.GetInts("output_axes"), "output");
  float* out = result.data<float>();
  std::vector<double> row(static_cast<size_t>(keys));
  for (int64_t b = 0; b < batches; ++b) {
    const std::vector<int64_t> batch = UnravelIndex(b, s.Batch());
    for (int64_t q = 0; q < queries; ++q) {
      for (int64_t k = 0; k < keys; ++k) {
        double dot = 0.0;
        for (int64_t d = 0; d < depth; ++d) {
          dot += element(0, "query", batch, q, d) * element(1, "key", batch, d, k);
        }
        row[static_cast<size_t>(k)] = dot;
      }
      MaskedSoftmaxRow(row, (b * queries + q) * keys, mask, mask_index, attrs);
      for (int64_t v = 0; v < value_depth; ++v) {
        double sum = 0.0;
        for (int64_t k = 0; k < keys; ++k) sum += row[static_cast<size_t>(k)] * element(2, "value", batch, k, v);
        std::vector<int64_t> product_index = batch;
        product_index.push_back(q);
        product_index.push_back(v);
        std::vector<int64_t> out_index;
        for (int64_t axis : attrs.GetInts("output_axes")) out_index.push_back(product_index[static_cast<size_t>(axis)]);
        out[RavelIndex(out_index, out_shape)] = static_cast<float>(sum);
      }
    }
  }
  return {result};
}

}  // namespace

void RegisterAttentionOps(OpRegistry& registry) {
  // The logits' scale and the value a bool mask selects, then the pattern kind: both ops are
  // anchors whose element-wise consumers fuse into them.
  const auto masked_logits = [](OpDefBuilder builder) {
    return builder.Attr("scale", AttrKind::kFloat, 1.0)
        .Attr("masked_value", AttrKind::kFloat, 0.0)
        .Pattern(OpPatternKind::kOutEWiseFusable);
  };
  masked_logits(registry.Register("nn.masked_softmax")
                    .Describe("softmax over the last axis of data * scale, plus an f32 mask or with masked_value "
                              "where a bool mask is true")
                    .VariadicArgs(1, "data"))
      .Relation(MaskedSoftmaxRelation)
      .Kernel(MaskedSoftmaxKernel);

  OpDefBuilder attention = masked_logits(
      registry.Register("nn.attention")
          .Describe("scaled-dot-product attention masked_softmax(Q K) V on views (reshape, then transpose) of query, "
                    "key (already transposed) and value, the result transposed by output_axes and reshaped to "
                    "output_shape")
          .VariadicArgs(3, "query"));
  for (const char* view : {"query", "key", "value"}) {
    attention.Attr(std::string(view) + "_shape", AttrKind::kInts).Attr(std::string(view) + "_axes", AttrKind::kInts);
  }
  attention.Attr("output_axes", AttrKind::kInts)
      .Attr("output_shape", AttrKind::kInts)
      .Relation(AttentionRelation)
      .Kernel(AttentionKernel);
}

}  // namespace collage
