#include "frontend/onnx/onnx_converter_util.h"

#include <cstring>
#include <limits>
#include <utility>

#include "support/error.h"

namespace collage {

Expr ScalarConstant(FoldingBuilder& builder, double value, DType dtype) {
  if (IsInteger(dtype)) {
    const auto [low, high] = Int64Range(dtype);
    if (!(value >= static_cast<double>(low) && value <= static_cast<double>(high))) {
      throw Error("the constant " + std::to_string(value) + " does not fit the input's dtype " +
                  std::string(DTypeName(dtype)));
    }
  }
  Tensor scalar = Tensor::Zeros(dtype, {});
  scalar.SetFromDouble(0, value);
  return builder.Constant(std::move(scalar));
}

std::vector<int64_t> SequenceLengthsInput(const OnnxNode& node, size_t index, int64_t batch, int64_t max_length) {
  std::vector<int64_t> lengths = node.IntsInput(index, "sequence_lens");
  if (static_cast<int64_t>(lengths.size()) != batch) {
    throw Error("input sequence_lens has " + std::to_string(lengths.size()) + " values for a batch of " +
                std::to_string(batch));
  }
  for (int64_t length : lengths) {
    if (length < 0 || length > max_length) {
      throw Error("input sequence_lens holds " + std::to_string(length) + ", outside [0, " +
                  std::to_string(max_length) + "]");
    }
  }
  return lengths;
}

Expr Int64VectorConstant(FoldingBuilder& builder, const std::vector<int64_t>& values) {
  return builder.Constant(Tensor::FromVector(values, {static_cast<int64_t>(values.size())}));
}

Expr SliceAxis(FoldingBuilder& builder, const Expr& data, int64_t axis, int64_t begin, int64_t end) {
  return builder.Call("strided_slice", {data},
                      {{"begin", std::vector<int64_t>{begin}},
                       {"end", std::vector<int64_t>{end}},
                       {"axes", std::vector<int64_t>{axis}}});
}

Expr CastTo(FoldingBuilder& builder, const Expr& expr, DType dtype) {
  if (TensorTypeOf(expr).dtype == dtype) return expr;
  return builder.Call("cast", {expr}, {{"dtype", std::string(DTypeName(dtype))}});
}

Expr TransposeMatrix(FoldingBuilder& builder, const Expr& matrix) {
  const Tensor* value = ConstantValue(matrix);
  if (value == nullptr || value->rank() != 2) {
    return builder.Call("transpose", {matrix}, {{"axes", std::vector<int64_t>{1, 0}}});
  }
  const int64_t rows = value->shape()[0];
  const int64_t columns = value->shape()[1];
  const size_t element = DTypeSize(value->dtype());
  Tensor transposed = Tensor::Zeros(value->dtype(), {columns, rows});
  const auto* source = static_cast<const std::byte*>(value->raw_data());
  auto* target = static_cast<std::byte*>(transposed.raw_data());
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t column = 0; column < columns; ++column) {
      std::memcpy(target + (column * rows + row) * element, source + (row * columns + column) * element, element);
    }
  }
  return builder.Constant(std::move(transposed));
}

void ExpectBounded(const std::vector<int64_t>& values, const std::string& what) {
  for (int64_t value : values) {
    if (value < -kMaxShapeAttribute || value > kMaxShapeAttribute) {
      throw Error(what + " has the out-of-range value " + std::to_string(value));
    }
  }
}

void ExpectCount(const std::vector<int64_t>& values, size_t expected, const std::string& what) {
  if (values.size() != expected) {
    throw Error(what + " must have " + std::to_string(expected) + " values, got " + std::to_string(values.size()));
  }
}

Window2DAttrs ReadWindow2D(const OnnxNode& node, const std::vector<int64_t>& input_hw,
                           const std::vector<int64_t>& default_kernel) {
  Window2DAttrs window;
  window.kernel = node.Ints("kernel_shape", default_kernel);
  ExpectCount(window.kernel, 2, "attribute 'kernel_shape' (only 2-D windows are supported)");
  window.strides = node.Ints("strides", {1, 1});
  ExpectCount(window.strides, 2, "attribute 'strides'");
  window.dilation = node.Ints("dilations", {1, 1});
  ExpectCount(window.dilation, 2, "attribute 'dilations'");
  ExpectBounded(window.kernel, "attribute 'kernel_shape'");
  ExpectBounded(window.strides, "attribute 'strides'");
  ExpectBounded(window.dilation, "attribute 'dilations'");
  for (int axis = 0; axis < 2; ++axis) {
    if (window.kernel[axis] < 1 || window.strides[axis] < 1 || window.dilation[axis] < 1) {
      throw Error("kernel_shape, strides and dilations must be positive");
    }
  }
  const std::string auto_pad = node.String("auto_pad", "NOTSET");
  if (auto_pad == "NOTSET") {
    window.padding = node.Ints("pads", {0, 0, 0, 0});
    ExpectCount(window.padding, 4, "attribute 'pads'");
    ExpectBounded(window.padding, "attribute 'pads'");
    for (int64_t pad : window.padding) {
      if (pad < 0) throw Error("attribute 'pads' must not be negative");
    }
  } else if (auto_pad == "VALID") {
    window.padding = {0, 0, 0, 0};
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    window.padding.assign(4, 0);
    for (int axis = 0; axis < 2; ++axis) {
      const int64_t output = (input_hw[axis] + window.strides[axis] - 1) / window.strides[axis];
      const int64_t extent = (window.kernel[axis] - 1) * window.dilation[axis] + 1;
      const int64_t total = std::max<int64_t>(0, (output - 1) * window.strides[axis] + extent - input_hw[axis]);
      const int64_t small = total / 2;
      const int64_t large = total - small;
      window.padding[axis] = auto_pad == "SAME_UPPER" ? small : large;
      window.padding[axis + 2] = auto_pad == "SAME_UPPER" ? large : small;
    }
  } else {
    throw Error("attribute 'auto_pad' must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '" + auto_pad + "'");
  }
  return window;
}

}  // namespace collage
