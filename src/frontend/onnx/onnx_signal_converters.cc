// ONNX signal ops.
//
// Window functions (HannWindow, HammingWindow, BlackmanWindow): a generalized cosine window of
// a size known at import time becomes a constant,
//   w[n] = a0 - a1 cos(2 pi n / M) + a2 cos(4 pi n / M),  M = size (periodic) or size - 1.
//
// DFT and STFT: products with constant cosine and sine matrices (nn.matmul), so the backends
// place them like any matmul. Complex values are pairs in the last axis [real, imaginary]; the
// forward transform is Y[k] = sum_n X[n] e^(-2 pi i k n / N), the inverse uses e^(+...) / N;
// one-sided results keep the frequencies 0 to N / 2.
#include <cmath>
#include <numbers>
#include <utility>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "support/shape.h"

namespace collage {
namespace {

struct CosineWindow {
  double a0;
  double a1;
  double a2;
};

Tensor CosineWindowValues(const CosineWindow& window, int64_t size, bool periodic, DType dtype) {
  Tensor values = Tensor::Zeros(dtype, {size});
  const double period = static_cast<double>(periodic ? size : size - 1);
  for (int64_t n = 0; n < size; ++n) {
    // A one-point symmetric window has period 0: its single value is the window's peak.
    const double phase = period == 0.0 ? 0.0 : 2.0 * std::numbers::pi * static_cast<double>(n) / period;
    values.SetFromDouble(n, window.a0 - window.a1 * std::cos(phase) + window.a2 * std::cos(2.0 * phase));
  }
  return values;
}

OnnxConverter Window(CosineWindow window) {
  return [window](OnnxNode& node) -> std::vector<Expr> {
    const int64_t size = node.IntScalarInput(0, "size");
    if (size < 0 || size > kMaxShapeAttribute) {
      throw Error("input size must lie in [0, " + std::to_string(kMaxShapeAttribute) + "], got " + std::to_string(size));
    }
    const DType dtype = DTypeFromOnnx(static_cast<int32_t>(node.Int("output_datatype", onnx::TensorProto::FLOAT)));
    if (dtype == DType::kBool) throw Error("attribute 'output_datatype' must be numeric, got BOOL");
    return {node.builder().Constant(CosineWindowValues(window, size, node.Int("periodic", 1) != 0, dtype))};
  };
}

// The real and imaginary parts of complex data [..., 1 or 2] (imaginary null for real data).
std::pair<Expr, Expr> ComplexParts(FoldingBuilder& builder, const Expr& data) {
  const Shape& shape = TensorTypeOf(data).shape;
  const int64_t last = static_cast<int64_t>(shape.size()) - 1;
  if (shape.empty() || (shape.back() != 1 && shape.back() != 2)) {
    throw Error("the last axis must hold 1 (real) or 2 (complex) values, got shape " + ShapeToString(shape));
  }
  const Attrs squeeze = {{"axes", std::vector<int64_t>{last}}};
  Expr real = builder.Call("squeeze", {SliceAxis(builder, data, last, 0, 1)}, squeeze);
  if (shape.back() == 1) return {real, nullptr};
  return {real, builder.Call("squeeze", {SliceAxis(builder, data, last, 1, 2)}, squeeze)};
}

// The most elements a transform's cosine or sine matrix may hold (256 MiB of f32 each).
constexpr int64_t kMaxTwiddleElements = int64_t{1} << 26;

// cos or sin of 2 pi k n / length as an [length, frequencies] constant of `dtype`.
Expr TwiddleMatrix(FoldingBuilder& builder, int64_t length, int64_t frequencies, bool sine, DType dtype) {
  if (frequencies > 0 && length > kMaxTwiddleElements / frequencies) {
    throw Error("a transform of length " + std::to_string(length) + " to " + std::to_string(frequencies) +
                " frequencies needs " + std::to_string(length) + " x " + std::to_string(frequencies) +
                " constant matrices, more than the " + std::to_string(kMaxTwiddleElements) +
                " elements the importer builds");
  }
  Tensor matrix = Tensor::Zeros(dtype, {length, frequencies});
  for (int64_t n = 0; n < length; ++n) {
    for (int64_t k = 0; k < frequencies; ++k) {
      // k * n modulo length keeps the angle small, so large transforms stay accurate.
      const double angle = 2.0 * std::numbers::pi * static_cast<double>((k * n) % length) / static_cast<double>(length);
      matrix.SetFromDouble(n * frequencies + k, sine ? std::sin(angle) : std::cos(angle));
    }
  }
  return builder.Constant(std::move(matrix));
}

// The transform of complex values along the last axis of `real` / `imaginary` (length N) to
// `frequencies` values, stacked as [..., frequencies, 2].
Expr TransformLastAxis(FoldingBuilder& builder, const Expr& real, const Expr& imaginary, int64_t frequencies,
                       bool inverse) {
  const TensorTypeNode& type = TensorTypeOf(real);
  const int64_t length = type.shape.back();
  const Expr cosine = TwiddleMatrix(builder, length, frequencies, false, type.dtype);
  const Expr sine = TwiddleMatrix(builder, length, frequencies, true, type.dtype);
  auto product = [&](const Expr& values, const Expr& matrix) { return builder.Call("nn.matmul", {values, matrix}); };
  // forward: (a + ib)(cos - i sin) = a cos + b sin + i (b cos - a sin); inverse: the sine's sign flips.
  Expr real_out = product(real, cosine);
  Expr imaginary_out = builder.Call("negative", {product(real, sine)});
  if (inverse) imaginary_out = product(real, sine);
  if (imaginary) {
    real_out = builder.Call(inverse ? "subtract" : "add", {real_out, product(imaginary, sine)});
    imaginary_out = builder.Call("add", {imaginary_out, product(imaginary, cosine)});
  }
  if (inverse) {
    const Expr scale = ScalarConstant(builder, 1.0 / static_cast<double>(length), type.dtype);
    real_out = builder.Call("multiply", {real_out, scale});
    imaginary_out = builder.Call("multiply", {imaginary_out, scale});
  }
  const int64_t rank = static_cast<int64_t>(type.shape.size());
  const Attrs expand = {{"axes", std::vector<int64_t>{rank}}};
  return builder.Call("concatenate", {builder.Call("expand_dims", {real_out}, expand),
                                      builder.Call("expand_dims", {imaginary_out}, expand)},
                      {{"axis", rank}});
}

// `data` cut or zero-padded to `length` along `axis`.
Expr ToLength(FoldingBuilder& builder, const Expr& data, int64_t axis, int64_t length) {
  const Shape& shape = TensorTypeOf(data).shape;
  const int64_t extent = shape[static_cast<size_t>(axis)];
  if (length <= extent) return length == extent ? data : SliceAxis(builder, data, axis, 0, length);
  std::vector<int64_t> pads(2 * shape.size(), 0);
  pads[shape.size() + static_cast<size_t>(axis)] = length - extent;
  return builder.Call("nn.pad", {data}, {{"pad_width", pads}});
}

// The permutation that moves `axis` of a rank-`rank` tensor last (it is its own inverse only
// for the last two axes, so the caller inverts it).
std::vector<int64_t> AxisLast(int64_t axis, int64_t rank) {
  std::vector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis) order.push_back(d);
  }
  order.push_back(axis);
  return order;
}

std::vector<Expr> ConvertDFT(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& input = node.Input(0, "input");
  const int64_t rank = node.InputRank(0);
  if (rank < 3) throw Error("input must have a batch axis, a signal axis and the complex axis");
  // Negative axes count from the back, the complex axis included.
  const int64_t given = node.Int("axis", 1);
  const int64_t axis = given < 0 ? given + rank : given;
  if (axis < 1 || axis > rank - 2) {
    throw Error("attribute 'axis' must name a signal axis (1 to " + std::to_string(rank - 2) + "), got " +
                std::to_string(given));
  }
  const bool inverse = node.Int("inverse", 0) != 0;
  const bool onesided = node.Int("onesided", 0) != 0;
  if (onesided && inverse) throw Error("a one-sided inverse transform is not supported");
  auto [real, imaginary] = ComplexParts(builder, input);
  if (onesided && imaginary) throw Error("a one-sided transform needs real input");
  int64_t length = node.InputShape(0)[static_cast<size_t>(axis)];
  if (node.HasInput(1)) length = node.IntScalarInput(1, "dft_length");
  if (length < 1 || length > kMaxShapeAttribute) throw Error("the transform length must be positive");
  const std::vector<int64_t> order = AxisLast(axis, rank - 1);
  auto along_axis = [&](const Expr& part) {
    return part ? ToLength(builder, builder.Call("transpose", {part}, {{"axes", order}}), rank - 2, length) : nullptr;
  };
  Expr transformed = TransformLastAxis(builder, along_axis(real), along_axis(imaginary),
                                       onesided ? length / 2 + 1 : length, inverse);
  std::vector<int64_t> back(static_cast<size_t>(rank));
  for (size_t i = 0; i < order.size(); ++i) back[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
  back[static_cast<size_t>(rank - 1)] = rank - 1;
  return {builder.Call("transpose", {transformed}, {{"axes", back}})};
}

// Frames of `frame_length` every `frame_step` samples of signal [batch, length, 1 or 2], each
// times the window, transformed: [batch, frames, frequencies, 2].
std::vector<Expr> ConvertSTFT(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Expr& signal = node.Input(0, "signal");
  if (node.InputRank(0) != 3) throw Error("input signal must be [batch, length, 1 or 2]");
  const int64_t step = node.IntScalarInput(1, "frame_step");
  int64_t frame_length = 0;
  if (node.HasInput(3)) {
    frame_length = node.IntScalarInput(3, "frame_length");
  } else if (node.HasInput(2)) {
    frame_length = node.InputShape(2).empty() ? 0 : node.InputShape(2)[0];
  } else {
    throw Error("needs a window or a frame_length");
  }
  const int64_t length = node.InputShape(0)[1];
  if (step < 1 || frame_length < 1 || frame_length > length) {
    throw Error("frame_step must be positive and frame_length in [1, " + std::to_string(length) + "]");
  }
  const bool onesided = node.Int("onesided", 1) != 0;
  auto [real, imaginary] = ComplexParts(builder, signal);
  if (onesided && imaginary) throw Error("a one-sided transform needs real input");
  const int64_t frames = (length - frame_length) / step + 1;
  auto framed = [&](const Expr& part) -> Expr {
    if (!part) return nullptr;
    std::vector<Expr> pieces;
    for (int64_t f = 0; f < frames; ++f) {
      pieces.push_back(builder.Call("expand_dims", {SliceAxis(builder, part, 1, f * step, f * step + frame_length)},
                                    {{"axes", std::vector<int64_t>{1}}}));
    }
    Expr stacked = pieces.size() == 1 ? pieces[0] : builder.Call("concatenate", pieces, {{"axis", int64_t{1}}});
    if (node.HasInput(2)) stacked = builder.Call("multiply", {stacked, node.Input(2, "window")});
    return stacked;
  };
  return {TransformLastAxis(builder, framed(real), framed(imaginary), onesided ? frame_length / 2 + 1 : frame_length,
                            false)};
}

}  // namespace

void RegisterSignalConverters(OnnxConverterTable& table) {
  table.Add("DFT", ConvertDFT);
  table.Add("STFT", ConvertSTFT);
  table.Add("HannWindow", Window({0.5, 0.5, 0.0}));
  table.Add("HammingWindow", Window({25.0 / 46.0, 21.0 / 46.0, 0.0}));
  table.Add("BlackmanWindow", Window({0.42, 0.5, 0.08}));
}

}  // namespace collage
