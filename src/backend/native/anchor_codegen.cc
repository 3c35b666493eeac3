#include "backend/native/anchor_codegen.h"

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
};

// out[batch] = a[batch] x b[batch] with numpy batch broadcasting; a and b are already
// viewed as (batch..., rows, depth) and (batch..., depth, columns) or transposed.
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
  bool float_only;
  std::function<std::string(const AnchorCall&)> emit;
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
    if (type == nullptr || (it->second.float_only && type->dtype != DType::kF32)) return false;
  }
  return true;
}

AnchorInput AnchorInputKind(const CallNode& call) { return Anchors().at(call.op()->name).input; }

std::string EmitAnchorCall(const CallNode& call, const std::vector<std::string>& inputs, const std::string& epilogue,
                           const std::string& threads) {
  return Anchors().at(call.op()->name).emit(AnchorCall{call, inputs, epilogue, threads});
}

}  // namespace collage::native
