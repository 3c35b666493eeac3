// image.resize2d: ONNX Resize over the two spatial axes of NCHW data to a given size, with
// nearest, linear and cubic interpolation. Each output position along an axis reads a few
// weighted input positions ("taps"); the 2-D result is the separable product of the taps of
// both axes. Output coordinates map back to input coordinates by the
// coordinate_transformation_mode (scale = output extent / input extent):
//   half_pixel          (x + 0.5) / scale - 0.5
//   pytorch_half_pixel  the same, but 0 when the output extent is 1
//   align_corners       x * (in - 1) / (out - 1), 0 when the output extent is 1
//   asymmetric          x / scale
// Nearest rounds that coordinate by rounding_method; linear and cubic read beyond the border
// as the border value (ONNX's edge padding, exclude_outside = 0).
#include <algorithm>
#include <array>
#include <cmath>

#include "op/all_ops.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/resize_taps.h"
#include "op/type_relation_util.h"

namespace collage {

ResizeOptions GetResizeOptions(const Attrs& attrs) {
  return {GetChoice(attrs, "method", {"nearest", "linear", "cubic"}),
          GetChoice(attrs, "coordinate_transformation_mode",
                    {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"}),
          GetChoice(attrs, "rounding_method", {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}),
          attrs.GetFloat("cubic_coeff_a")};
}

namespace {

double SourceCoordinate(int64_t out_index, int64_t in_extent, int64_t out_extent, const std::string& mode) {
  const double x = static_cast<double>(out_index);
  const double scale = static_cast<double>(out_extent) / static_cast<double>(in_extent);
  if (mode == "align_corners") {
    return out_extent == 1 ? 0.0 : x * static_cast<double>(in_extent - 1) / static_cast<double>(out_extent - 1);
  }
  if (mode == "asymmetric") return x / scale;
  if (mode == "pytorch_half_pixel" && out_extent == 1) return 0.0;
  return (x + 0.5) / scale - 0.5;
}

int64_t RoundCoordinate(double coordinate, const std::string& rounding) {
  const double below = std::floor(coordinate);
  if (rounding == "floor") return static_cast<int64_t>(below);
  if (rounding == "ceil") return static_cast<int64_t>(std::ceil(coordinate));
  if (coordinate - below == 0.5) return static_cast<int64_t>(rounding == "round_prefer_floor" ? below : below + 1.0);
  return static_cast<int64_t>(std::round(coordinate));
}

// Keys' cubic convolution weights of the points at offsets -1, 0, 1, 2 from floor(x), where
// t = x - floor(x).
std::array<double, 4> CubicWeights(double t, double a) {
  auto near = [a](double d) { return ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0; };       // |d| <= 1
  auto far = [a](double d) { return ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a; };  // 1 < |d| < 2
  return {far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)};
}

}  // namespace

std::vector<Tap> TapsOf(int64_t out_index, int64_t in_extent, int64_t out_extent, const ResizeOptions& options) {
  const double coordinate = SourceCoordinate(out_index, in_extent, out_extent, options.coordinate_mode);
  auto clamp = [in_extent](int64_t position) { return std::clamp<int64_t>(position, 0, in_extent - 1); };
  if (options.method == "nearest") return {{clamp(RoundCoordinate(coordinate, options.rounding)), 1.0}};
  if (options.method == "linear") {
    const double clamped = std::clamp(coordinate, 0.0, static_cast<double>(in_extent - 1));
    const int64_t left = static_cast<int64_t>(std::floor(clamped));
    const double fraction = clamped - static_cast<double>(left);
    return {{left, 1.0 - fraction}, {clamp(left + 1), fraction}};
  }
  const double below = std::floor(coordinate);
  const std::array<double, 4> weights = CubicWeights(coordinate - below, options.cubic_a);
  std::vector<Tap> taps;
  for (int64_t offset = -1; offset <= 2; ++offset) {
    taps.push_back({clamp(static_cast<int64_t>(below) + offset), weights[static_cast<size_t>(offset + 1)]});
  }
  return taps;
}

namespace {

Type Resize2DRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectRank(data, 4, "data");
  ExpectFloat(data, "data");
  const std::vector<int64_t> size = GetIntList(attrs, "size", 2, 1);
  GetResizeOptions(attrs);
  for (int axis = 0; axis < 2; ++axis) {
    if (data.shape[2 + axis] < 1) {
      throw TypeError("data " + std::string(kSpatialAxisNames[axis]) + " (dimension " + std::to_string(2 + axis) +
                      ") must be positive, got " + std::to_string(data.shape[2 + axis]));
    }
  }
  return TensorType(data.dtype, {data.shape[0], data.shape[1], size[0], size[1]});
}

void Resize2DKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const Shape& in = args[0].shape();
  const Shape& out = result.shape();
  const ResizeOptions options = GetResizeOptions(attrs);
  std::array<std::vector<std::vector<Tap>>, 2> taps;
  for (int axis = 0; axis < 2; ++axis) {
    for (int64_t i = 0; i < out[2 + axis]; ++i) taps[axis].push_back(TapsOf(i, in[2 + axis], out[2 + axis], options));
  }
  const float* data = args[0].data<float>();
  float* output = result.data<float>();
  for (int64_t plane = 0; plane < out[0] * out[1]; ++plane) {
    for (int64_t y = 0; y < out[2]; ++y) {
      for (int64_t x = 0; x < out[3]; ++x) {
        double sum = 0.0;
        for (const Tap& row : taps[0][static_cast<size_t>(y)]) {
          for (const Tap& column : taps[1][static_cast<size_t>(x)]) {
            sum += row.weight * column.weight * data[(plane * in[2] + row.position) * in[3] + column.position];
          }
        }
        output[(plane * out[2] + y) * out[3] + x] = static_cast<float>(sum);
      }
    }
  }
}

}  // namespace

void RegisterImageOps(OpRegistry& registry) {
  registry.Register("image.resize2d")
      .Describe("ONNX Resize of the spatial axes of NCHW data to size [height, width] (nearest, linear, cubic)")
      .Args({"data"})
      .Attr("size", AttrKind::kInts)
      .Attr("method", AttrKind::kString, std::string("nearest"))
      .Attr("coordinate_transformation_mode", AttrKind::kString, std::string("half_pixel"))
      .Attr("rounding_method", AttrKind::kString, std::string("round_prefer_floor"))
      .Attr("cubic_coeff_a", AttrKind::kFloat, -0.75)
      .Pattern(OpPatternKind::kInjective)
      .Relation(Resize2DRelation)
      .Kernel(MakeF32Kernel("image.resize2d", Resize2DRelation, Resize2DKernel));
}

}  // namespace collage
