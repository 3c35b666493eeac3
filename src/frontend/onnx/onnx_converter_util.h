// Small helpers the ONNX converter groups share: typed constants and window attributes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/onnx/folding_builder.h"
#include "frontend/onnx/onnx_node.h"
#include "ir/expr.h"
#include "support/dtype.h"

namespace collage {

// A rank-0 constant of `dtype` holding `value`.
Expr ScalarConstant(FoldingBuilder& builder, double value, DType dtype);
// A 1-D i64 constant.
Expr Int64VectorConstant(FoldingBuilder& builder, const std::vector<int64_t>& values);
// Positions [begin, end) of `data` along `axis`.
Expr SliceAxis(FoldingBuilder& builder, const Expr& data, int64_t axis, int64_t begin, int64_t end);
// `expr` converted to `dtype` (itself when it already has that dtype).
Expr CastTo(FoldingBuilder& builder, const Expr& expr, DType dtype);

// The transpose of a 2-D expression; a constant (a weight) is transposed at once, without
// going through the generic transpose kernel.
Expr TransposeMatrix(FoldingBuilder& builder, const Expr& matrix);

// The largest magnitude accepted for window sizes, strides, dilations, pads and split sizes:
// far beyond real models, small enough that shape arithmetic on them cannot overflow.
inline constexpr int64_t kMaxShapeAttribute = int64_t{1} << 31;
// Throws Error naming `what` unless every value lies in [-kMaxShapeAttribute, kMaxShapeAttribute].
void ExpectBounded(const std::vector<int64_t>& values, const std::string& what);

// Constant input `index` of per-sequence lengths ("sequence_lens"): `batch` values in
// [0, max_length]; throws Error otherwise.
std::vector<int64_t> SequenceLengthsInput(const OnnxNode& node, size_t index, int64_t batch, int64_t max_length);

// Throws Error unless `values` has `expected` entries; `what` names them ("attribute 'pads'").
void ExpectCount(const std::vector<int64_t>& values, size_t expected, const std::string& what);

// The 2-D window attributes of Conv, ConvTranspose and the pools, in the IR's order
// (padding [top, left, bottom, right] is ONNX's pads order for two spatial axes).
struct Window2DAttrs {
  std::vector<int64_t> kernel;    // [kh, kw]
  std::vector<int64_t> strides;   // [sh, sw]
  std::vector<int64_t> dilation;  // [dh, dw]
  std::vector<int64_t> padding;   // [top, left, bottom, right]
};

// Reads kernel_shape (or `default_kernel` when absent), strides, dilations, pads and
// auto_pad for 4-D NCHW data of spatial extent `input_hw`. SAME_UPPER / SAME_LOWER pads so
// that output = ceil(input / stride) with the odd padding at the end / the start.
Window2DAttrs ReadWindow2D(const OnnxNode& node, const std::vector<int64_t>& input_hw,
                           const std::vector<int64_t>& default_kernel);

}  // namespace collage
