#include "backend/native/anchor_codegen.h"

#include <algorithm>
#include <functional>
#include <map>

#include "backend/native/index_expr.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "support/error.h"

namespace collage::native {
namespace {

const TensorTypeNode& ArgType(const CallNode& call, size_t arg) {
  const TensorTypeNode* type = AsTensorType(call.args.at(arg)->checked_type());
  Check(type != nullptr, "native: anchor argument is not a tensor");
  return *type;
}

const TensorTypeNode& ResultType(const CallNode& call) {
  const TensorTypeNode* type = AsTensorType(call.checked_type());
  Check(type != nullptr, "native: anchor result is not a tensor");
  return *type;
}

std::string List(const std::vector<int64_t>& values) {
  std::string text;
  for (int64_t value : values) text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

// What an anchor emitter sees.
struct AnchorCall {
  const CallNode& call;
  const std::vector<std::string>& inputs;
  const std::string& epilogue;
  const std::string& threads;
  bool packed_weights;
};

// out[batch] = a[batch] x b[batch] with numpy batch broadcasting; a and b are already
// viewed as (batch..., rows, depth) and (batch..., depth, columns) or transposed. Constant
// weights come packed (see packed_weights.h).
std::string EmitMatmul(const AnchorCall& c, const Shape& a_batch, const Shape& b_batch, const Shape& out_batch,
                       int64_t rows, int64_t depth, int64_t columns, bool transposed) {
  std::vector<int64_t> a_offsets;
  std::vector<int64_t> b_offsets;
  const std::vector<int64_t> out_strides = RowMajorStrides(out_batch);
  const int64_t batches = NumElements(out_batch);
  for (int64_t batch = 0; batch < batches; ++batch) {
    const auto offset = [&](const Shape& shape) {
      int64_t index = 0;
      const std::vector<int64_t> strides = RowMajorStrides(shape);
      const size_t shift = out_batch.size() - shape.size();
      for (size_t d = 0; d < shape.size(); ++d) {
        const int64_t coordinate = (batch / out_strides[d + shift]) % out_batch[d + shift];
        if (shape[d] != 1) index += coordinate * strides[d];
      }
      return index;
    };
    a_offsets.push_back(offset(a_batch) * rows * depth);
    b_offsets.push_back(offset(b_batch) * depth * columns);
  }
  if (c.packed_weights) {
    return "const int64_t a_offsets[] = {" + List(a_offsets) + "}; native::MatmulPackedWeights(" +
           std::to_string(batches) + ", a_offsets, " + std::to_string(rows) + ", " + std::to_string(columns) + ", " +
           std::to_string(depth) + ", " + c.inputs[0] + ", " + c.inputs[1] + ", " + c.threads + ", " + c.epilogue + ");";
  }
  return "const int64_t a_offsets[] = {" + List(a_offsets) + "}; const int64_t b_offsets[] = {" + List(b_offsets) +
         "}; native::BatchedMatmul(" + std::to_string(batches) + ", a_offsets, b_offsets, " + std::to_string(rows) +
         ", " + std::to_string(columns) + ", " + std::to_string(depth) + ", " + (transposed ? "true" : "false") + ", " +
         c.inputs[0] + ", " + c.inputs[1] + ", " + c.threads + ", " + c.epilogue + ");";
}

std::string EmitDense(const AnchorCall& c) {
  const Shape& data = ArgType(c.call, 0).shape;
  const Shape& weight = ArgType(c.call, 1).shape;
  const int64_t rows = NumElements(Shape(data.begin(), data.end() - 1));
  return EmitMatmul(c, {}, {}, {}, rows, data.back(), weight[0], true);
}

std::string EmitNumpyMatmul(const AnchorCall& c) {
  const Shape& a = ArgType(c.call, 0).shape;
  const Shape& b = ArgType(c.call, 1).shape;
  const int64_t rows = a.size() == 1 ? 1 : a[a.size() - 2];
  const int64_t columns = b.size() == 1 ? 1 : b.back();
  const Shape a_batch(a.begin(), a.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(a.size())));
  const Shape b_batch(b.begin(), b.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(b.size())));
  const Shape& out = ResultType(c.call).shape;
  const size_t out_matrix_rank = (a.size() > 1 ? 1 : 0) + (b.size() > 1 ? 1 : 0);
  const Shape out_batch(out.begin(), out.end() - static_cast<ptrdiff_t>(out_matrix_rank));
  return EmitMatmul(c, a_batch, b_batch, out_batch, rows, a.back(), columns, false);
}

std::string EmitBatchMatmul(const AnchorCall& c) {
  const Shape& a = ArgType(c.call, 0).shape;
  const Shape& b = ArgType(c.call, 1).shape;
  const bool transposed = GetFlag(c.call.attrs, "transpose_b");
  return EmitMatmul(c, {a[0]}, {b[0]}, {std::max(a[0], b[0])}, a[1], a[2], transposed ? b[1] : b[2], transposed);
}

std::string ConvShapeLiteral(const CallNode& call) {
  const Shape& data = ArgType(call, 0).shape;
  const Shape& weight = ArgType(call, 1).shape;
  const Shape& out = ResultType(call).shape;
  const Window2D window = GetWindow2D(call.attrs);
  return "native::ConvShape{" +
         List({data[0], data[1], data[2], data[3], out[1], out[2], out[3], weight[2], weight[3], window.strides[0],
               window.strides[1], window.pad_begin[0], window.pad_begin[1], window.dilation[0], window.dilation[1],
               call.attrs.GetInt("groups")}) +
         "}";
}

std::string EmitConv(const AnchorCall& c, const std::string& kernel) {
  return "const native::ConvShape shape = " + ConvShapeLiteral(c.call) + "; native::" + kernel + "(shape, " +
         c.inputs[0] + ", " + c.inputs[1] + ", " + c.threads + ", " + c.epilogue + ");";
}

std::string PoolShapeLiteral(const CallNode& call, const std::vector<int64_t>& kernel, const Window2D& window) {
  const Shape& data = ArgType(call, 0).shape;
  const Shape& out = ResultType(call).shape;
  return "native::PoolShape{" +
         List({data[0] * data[1], data[2], data[3], out[2], out[3], kernel[0], kernel[1], window.strides[0],
               window.strides[1], window.pad_begin[0], window.pad_begin[1], window.pad_end[0], window.pad_end[1],
               window.dilation[0], window.dilation[1]}) +
         "}";
}

std::string EmitWindowPool(const AnchorCall& c, bool is_max) {
  const std::string shape = PoolShapeLiteral(c.call, c.call.attrs.GetInts("pool_size"), GetWindow2D(c.call.attrs));
  const bool include_pad = !is_max && GetFlag(c.call.attrs, "count_include_pad");
  return "const native::PoolShape shape = " + shape + "; native::WindowPool<" + (is_max ? "true" : "false") +
         ">(shape, " + c.inputs[0] + ", " + (include_pad ? "true" : "false") + ", " + c.threads + ", " + c.epilogue +
         ");";
}

std::string EmitAdaptivePool(const AnchorCall& c, bool is_max) {
  const std::string shape = PoolShapeLiteral(c.call, {1, 1}, Window2D{});
  return "const native::PoolShape shape = " + shape + "; native::AdaptivePool<" + (is_max ? "true" : "false") +
         ">(shape, " + c.inputs[0] + ", " + c.threads + ", " + c.epilogue + ");";
}

std::string RowShapeLiteral(const CallNode& call) {
  const Shape& shape = ArgType(call, 0).shape;
  const int64_t axis = NormalizeAxis(call.attrs.GetInt("axis"), static_cast<int64_t>(shape.size()), "axis");
  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) outer *= shape[d];
    if (d > axis) inner *= shape[d];
  }
  return "native::RowShape{" + List({outer, shape[axis], inner}) + "}";
}

std::string EmitSoftmax(const AnchorCall& c, const std::string& op) {
  return "native::SoftmaxRows<native::RowOp::" + op + ">(" + RowShapeLiteral(c.call) + ", " + c.inputs[0] + ", " +
         c.threads + ", " + c.epilogue + ");";
}

std::string EmitLayerNorm(const AnchorCall& c) {
  return "native::LayerNormRows(" + RowShapeLiteral(c.call) + ", " + c.inputs[0] + ", " + c.inputs[1] + ", " +
         c.inputs[2] + ", " + FloatLiteral(c.call.attrs.GetFloat("epsilon")) + ", " + c.threads + ", " + c.epilogue +
         ");";
}

std::string EmitRmsNorm(const AnchorCall& c) {
  return "native::RmsNormRows(" + RowShapeLiteral(c.call) + ", " + c.inputs[0] + ", " + c.inputs[1] + ", " +
         FloatLiteral(c.call.attrs.GetFloat("epsilon")) + ", " + c.threads + ", " + c.epilogue + ");";
}

std::string EmitSqueezeExcitation(const AnchorCall& c) {
  const Shape& data = ArgType(c.call, 0).shape;
  const Attrs& attrs = c.call.attrs;
  const std::string silu = attrs.GetString("activation") == "silu" ? "true" : "false";
  const std::string hard = attrs.GetString("gate") == "hard_sigmoid" ? "true" : "false";
  const bool channels_last = attrs.GetString("layout") == "NHWC";
  const int64_t channels = channels_last ? data[3] : data[1];
  const int64_t plane = channels_last ? data[1] * data[2] : data[2] * data[3];
  return "native::SqueezeExcitation<" + silu + ", " + hard + ", " + (channels_last ? "true" : "false") +
         ">(native::SqueezeExcitationShape{" + List({data[0], channels, plane, ArgType(c.call, 1).shape[0]}) + "}, " +
         c.inputs[0] + ", " +
         c.inputs[1] + ", " + c.inputs[2] + ", " + c.inputs[3] + ", " + c.inputs[4] + ", " +
         FloatLiteral(attrs.GetFloat("gate_slope")) + ", " + FloatLiteral(attrs.GetFloat("gate_offset")) + ", " +
         c.threads + ", " + c.epilogue + ");";
}

// A mask argument's element type in the runtime ("native::NoMask" when absent).
std::string MaskType(const CallNode& call, size_t arg) {
  if (call.args.size() <= arg) return "native::NoMask";
  return ArgType(call, arg).dtype == DType::kBool ? "bool" : "float";
}

std::string MaskPointer(const AnchorCall& c, size_t arg) {
  return c.call.args.size() > arg ? c.inputs[arg] : "static_cast<const native::NoMask*>(nullptr)";
}

std::string EmitMaskedSoftmax(const AnchorCall& c) {
  const Shape& data = ArgType(c.call, 0).shape;
  const int64_t extent = data.back();
  const int64_t rows = extent == 0 ? 0 : NumElements(data) / extent;
  std::string mask_row = "index_t{0}";
  int64_t column_stride = 0;
  if (c.call.args.size() > 1) {
    const Shape& mask = ArgType(c.call, 1).shape;
    mask_row = BroadcastIndexExpr(mask, data, "(r * " + IndexLiteral(extent) + ")");
    column_stride = !mask.empty() && mask.back() != 1 ? 1 : 0;
  }
  return "native::MaskedSoftmaxRows(" + std::to_string(rows) + ", " + std::to_string(extent) + ", " + c.inputs[0] +
         ", " + FloatLiteral(c.call.attrs.GetFloat("scale")) + ", " + MaskPointer(c, 1) +
         ", [](index_t r) { (void)r; return static_cast<int64_t>(" + mask_row + "); }, " +
         "std::integral_constant<int64_t, " + std::to_string(column_stride) + ">{}, " +
         FloatLiteral(c.call.attrs.GetFloat("masked_value")) + ", " + c.threads + ", " + c.epilogue + ");";
}

// A (batch..., rows, columns) view of a tensor: the element offset of every batch (row-major
// over the batch axes) and the row and column strides.
struct ViewStrides {
  std::vector<int64_t> batch_offsets;
  int64_t row_stride = 0;
  int64_t column_stride = 0;
};

// The view whose axis d steps `view_strides[d]` elements, over the batch axes `batch`.
ViewStrides StridesOfView(const std::vector<int64_t>& view_strides, const Shape& batch) {
  ViewStrides view;
  const size_t rank = view_strides.size();
  for (int64_t b = 0; b < std::max<int64_t>(NumElements(batch), 1); ++b) {
    int64_t offset = 0;
    int64_t rest = b;
    for (size_t d = batch.size(); d-- > 0;) {
      offset += rest % batch[d] * view_strides[d];
      rest /= batch[d];
    }
    view.batch_offsets.push_back(offset);
  }
  view.row_stride = view_strides[rank - 2];
  view.column_stride = view_strides[rank - 1];
  return view;
}

// Strides of transpose(operand, axes) for a row-major operand: view axis d steps operand axis axes[d].
std::vector<int64_t> TransposedStrides(const Shape& operand, const std::vector<int64_t>& axes) {
  const std::vector<int64_t> strides = RowMajorStrides(operand);
  std::vector<int64_t> view;
  for (int64_t axis : axes) view.push_back(strides[static_cast<size_t>(axis)]);
  return view;
}

std::string ViewLiteral(const std::string& name, const std::string& type, const std::string& data,
                        const ViewStrides& view, std::string& declarations) {
  declarations += "const int64_t " + name + "_offsets[] = {" + List(view.batch_offsets) + "}; ";
  return "native::StridedView<" + type + ">{" + data + ", " + name + "_offsets, " + std::to_string(view.row_stride) +
         ", " + std::to_string(view.column_stride) + "}";
}

// The shape of transpose(reshape(operand, <name>_shape), <name>_axes).
Shape ViewedShape(const Attrs& attrs, const std::string& name) {
  const Shape& shape = attrs.GetInts(name + "_shape");
  Shape viewed;
  for (int64_t axis : attrs.GetInts(name + "_axes")) viewed.push_back(shape[static_cast<size_t>(axis)]);
  return viewed;
}

std::string EmitAttention(const AnchorCall& c) {
  const Attrs& attrs = c.call.attrs;
  const size_t rank = attrs.GetInts("output_axes").size();
  std::vector<std::vector<int64_t>> views;
  for (const char* name : {"query", "key", "value"}) {
    const std::string prefix(name);
    views.push_back(TransposedStrides(attrs.GetInts(prefix + "_shape"), attrs.GetInts(prefix + "_axes")));
  }
  // The product (batch..., Sq, Dv) is transposed (its axis p is the result's axis d with
  // output_axes[d] = p), then reshaped, which keeps the row-major linear indices.
  const std::vector<int64_t>& output_axes = attrs.GetInts("output_axes");
  Shape product = ViewedShape(attrs, "query");
  product.back() = ViewedShape(attrs, "value").back();
  Shape transposed(rank);
  for (size_t d = 0; d < rank; ++d) transposed[d] = product[static_cast<size_t>(output_axes[d])];
  const std::vector<int64_t> transposed_strides = RowMajorStrides(transposed);
  std::vector<int64_t> product_strides(rank);
  for (size_t d = 0; d < rank; ++d) product_strides[static_cast<size_t>(output_axes[d])] = transposed_strides[d];
  const Shape batch(product.begin(), product.end() - 2);
  const int64_t queries = product[rank - 2];
  const int64_t value_depth = product[rank - 1];
  const int64_t depth = ViewedShape(attrs, "query").back();
  const int64_t keys = ViewedShape(attrs, "key").back();
  // The mask's strides over the logits (batch..., queries, keys): zero where it broadcasts.
  std::vector<int64_t> mask_strides(rank, 0);
  if (c.call.args.size() > 3) {
    const Shape& mask = ArgType(c.call, 3).shape;
    const std::vector<int64_t> strides = RowMajorStrides(mask);
    for (size_t d = 0; d < mask.size(); ++d) {
      if (mask[d] != 1) mask_strides[rank - mask.size() + d] = strides[d];
    }
  }
  std::string declarations;
  const auto float_view = [&](const std::string& name, size_t arg) {
    return ViewLiteral(name, "float", c.inputs[arg], StridesOfView(views[arg], batch), declarations);
  };
  const std::string query_view = float_view("query", 0);
  const std::string key_view = float_view("key", 1);
  const std::string value_view = float_view("value", 2);
  const std::string mask_view =
      ViewLiteral("mask", MaskType(c.call, 3), MaskPointer(c, 3), StridesOfView(mask_strides, batch), declarations);
  const std::string output_view =
      ViewLiteral("output", "float", "nullptr", StridesOfView(product_strides, batch), declarations);
  return declarations + "native::Attention(native::AttentionShape{" +
         List({NumElements(batch), queries, keys, depth, value_depth}) + "}, " + query_view +
         ", " + key_view + ", " + value_view + ", " + mask_view + ", " + output_view + ", " +
         FloatLiteral(attrs.GetFloat("scale")) + ", " + FloatLiteral(attrs.GetFloat("masked_value")) + ", " +
         c.threads + ", " + c.epilogue + ");";
}

// Reductions: the input element of (output o, reduced position r) through the kept and the
// reduced coordinates.
std::string EmitReduce(const AnchorCall& c, const std::string& op, bool single_axis) {
  const TensorTypeNode& data = ArgType(c.call, 0);
  const Shape& shape = data.shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  if (single_axis) {
    reduced[NormalizeAxis(c.call.attrs.GetInt("axis"), rank, "axis")] = true;
  } else {
    const std::vector<int64_t>& axes = c.call.attrs.GetInts("axis");
    if (axes.empty()) reduced.assign(shape.size(), true);
    for (int64_t axis : axes) reduced[NormalizeAxis(axis, rank, "axis")] = true;
  }
  Shape kept_shape;
  Shape reduced_shape;
  for (size_t d = 0; d < shape.size(); ++d) (reduced[d] ? reduced_shape : kept_shape).push_back(shape[d]);
  std::vector<std::string> coordinates;
  size_t kept_axis = 0;
  size_t reduced_axis = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    coordinates.push_back(reduced[d] ? CoordinateExpr(reduced_shape, reduced_axis++, "r")
                                     : CoordinateExpr(kept_shape, kept_axis++, "o"));
  }
  return "native::Reduce<native::ReduceOp::" + op + ", " + ComputeType(data.dtype) + ">(" +
         std::to_string(NumElements(kept_shape)) + ", " + std::to_string(NumElements(reduced_shape)) + ", " +
         c.inputs[0] + ", [](index_t o, index_t r) { (void)o; (void)r; return " + LinearExpr(shape, coordinates) +
         "; }, " + c.threads + ", " + c.epilogue + ");";
}

struct AnchorDef {
  AnchorInput input;
  bool float_only;  // every argument f32 (but for a trailing mask argument, see masked_arg)
  std::function<std::string(const AnchorCall&)> emit;
  int masked_arg = -1;  // the argument that may also be bool
};

const std::map<std::string, AnchorDef>& Anchors() {
  constexpr AnchorInput kPointer = AnchorInput::kPointer;
  constexpr AnchorInput kAccessor = AnchorInput::kAccessor;
  const auto reduce = [](std::string op, bool single_axis) {
    return [op, single_axis](const AnchorCall& c) { return EmitReduce(c, op, single_axis); };
  };
  static const std::map<std::string, AnchorDef> anchors = {
      {"nn.dense", {kPointer, true, EmitDense}},
      {"nn.matmul", {kPointer, true, EmitNumpyMatmul}},
      {"nn.batch_matmul", {kPointer, true, EmitBatchMatmul}},
      {"nn.conv2d", {kPointer, true, [](const AnchorCall& c) { return EmitConv(c, "Conv2d"); }}},
      {"nn.conv2d_transpose", {kPointer, true, [](const AnchorCall& c) { return EmitConv(c, "Conv2dTranspose"); }}},
      {"nn.max_pool2d", {kPointer, true, [](const AnchorCall& c) { return EmitWindowPool(c, true); }}},
      {"nn.avg_pool2d", {kPointer, true, [](const AnchorCall& c) { return EmitWindowPool(c, false); }}},
      {"nn.global_max_pool2d", {kPointer, true, [](const AnchorCall& c) { return EmitAdaptivePool(c, true); }}},
      {"nn.global_avg_pool2d", {kPointer, true, [](const AnchorCall& c) { return EmitAdaptivePool(c, false); }}},
      {"nn.adaptive_avg_pool2d", {kPointer, true, [](const AnchorCall& c) { return EmitAdaptivePool(c, false); }}},
      {"nn.softmax", {kPointer, true, [](const AnchorCall& c) { return EmitSoftmax(c, "kSoftmax"); }}},
      {"nn.log_softmax", {kPointer, true, [](const AnchorCall& c) { return EmitSoftmax(c, "kLogSoftmax"); }}},
      {"nn.layer_norm", {kPointer, true, EmitLayerNorm}},
      {"nn.rms_norm", {kPointer, true, EmitRmsNorm}},
      {"nn.squeeze_excitation", {kPointer, true, EmitSqueezeExcitation}},
      {"nn.masked_softmax", {kPointer, true, EmitMaskedSoftmax, 1}},
      {"nn.attention", {kPointer, true, EmitAttention, 3}},
      {"sum", {kAccessor, false, reduce("kSum", false)}},
      {"mean", {kAccessor, false, reduce("kMean", false)}},
      {"max", {kAccessor, false, reduce("kMax", false)}},
      {"min", {kAccessor, false, reduce("kMin", false)}},
      {"prod", {kAccessor, false, reduce("kProd", false)}},
      {"argmax", {kAccessor, false, reduce("kArgMax", true)}},
      {"argmin", {kAccessor, false, reduce("kArgMin", true)}},
  };
  return anchors;
}

}  // namespace

bool HasAnchorKernel(const CallNode& call) {
  if (call.op() == nullptr) return false;
  const auto it = Anchors().find(call.op()->name);
  if (it == Anchors().end()) return false;
  if (!AsTensorType(call.checked_type())) return false;
  for (size_t arg = 0; arg < call.args.size(); ++arg) {
    const TensorTypeNode* type = AsTensorType(call.args[arg]->checked_type());
    if (type == nullptr) return false;
    const bool bool_mask = static_cast<int>(arg) == it->second.masked_arg && type->dtype == DType::kBool;
    if (it->second.float_only && type->dtype != DType::kF32 && !bool_mask) return false;
  }
  return true;
}

int64_t EpilogueRowColumns(const CallNode& call) {
  const std::string& op = call.op()->name;
  const bool product = op == "nn.dense" || op == "nn.batch_matmul" || (op == "nn.matmul" && ArgType(call, 1).shape.size() > 1);
  const Shape& out = ResultType(call).shape;
  return product && !out.empty() ? out.back() : 0;
}

AnchorInput AnchorInputKind(const CallNode& call) { return Anchors().at(call.op()->name).input; }

std::string EmitAnchorCall(const CallNode& call, const std::vector<std::string>& inputs, const std::string& epilogue,
                           const std::string& threads, bool packed_weights) {
  return Anchors().at(call.op()->name).emit(AnchorCall{call, inputs, epilogue, threads, packed_weights});
}

}  // namespace collage::native
