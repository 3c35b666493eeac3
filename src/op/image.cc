// image.grid_sample (ONNX GridSample) is described at its kernel below.
// image.resize2d: ONNX Resize over the two spatial axes of NCHW data to a given size, with
// nearest, linear and cubic interpolation. Each output position along an axis reads a few
// weighted input positions ("taps"); the 2-D result is the separable product of the taps of
// both axes. Output coordinates map back to input coordinates by the
// coordinate_transformation_mode (scale: the `scales` attribute, or output extent / input
// extent when it is empty):
//   half_pixel            (x + 0.5) / scale - 0.5
//   pytorch_half_pixel    the same, but 0 when the output extent is 1
//   align_corners         x * (in - 1) / (in * scale - 1), 0 when that is not positive
//   asymmetric            x / scale
//   tf_half_pixel_for_nn  (x + 0.5) / scale
// Nearest rounds that coordinate by rounding_method; linear and cubic read beyond the border
// as the border value (ONNX's edge padding), or with exclude_outside give the taps beyond it
// weight 0 and rescale the others to sum to 1.
#include <algorithm>
#include <array>
#include <cmath>

#include "op/all_ops.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/resize_taps.h"
#include "op/type_relation_util.h"

namespace collage {

ResizeOptions GetResizeOptions(const Attrs& attrs) {
  ResizeOptions options{
      GetChoice(attrs, "method", {"nearest", "linear", "cubic"}),
      GetChoice(attrs, "coordinate_transformation_mode",
                {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn"}),
      GetChoice(attrs, "rounding_method", {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}),
      attrs.GetFloat("cubic_coeff_a"), attrs.GetInt("exclude_outside") != 0, attrs.GetFloats("scales")};
  if (!options.scales.empty() && options.scales.size() != 2) {
    throw TypeError("attribute scales must have 2 values (height, width) or none, got " +
                    std::to_string(options.scales.size()));
  }
  for (double scale : options.scales) {
    if (!(scale > 0.0 && std::isfinite(scale))) throw TypeError("attribute scales must be positive and finite");
  }
  return options;
}

namespace {

double SourceCoordinate(int64_t out_index, int64_t in_extent, int64_t out_extent, double scale,
                        const std::string& mode) {
  const double x = static_cast<double>(out_index);
  if (mode == "align_corners") {
    // The resized length is in * scale, which given scales can make fractional.
    const double span = static_cast<double>(in_extent) * scale - 1.0;
    return span <= 0.0 ? 0.0 : x * static_cast<double>(in_extent - 1) / span;
  }
  if (mode == "asymmetric") return x / scale;
  if (mode == "pytorch_half_pixel" && out_extent == 1) return 0.0;
  if (mode == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
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

std::vector<Tap> TapsOf(int axis, int64_t out_index, int64_t in_extent, int64_t out_extent,
                        const ResizeOptions& options) {
  const double scale = options.scales.empty() ? static_cast<double>(out_extent) / static_cast<double>(in_extent)
                                              : options.scales[static_cast<size_t>(axis)];
  const double coordinate = SourceCoordinate(out_index, in_extent, out_extent, scale, options.coordinate_mode);
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
  double kept_weight = 0.0;
  for (int64_t offset = -1; offset <= 2; ++offset) {
    const int64_t position = static_cast<int64_t>(below) + offset;
    const bool outside = position < 0 || position >= in_extent;
    const double weight = options.exclude_outside && outside ? 0.0 : weights[static_cast<size_t>(offset + 1)];
    kept_weight += weight;
    taps.push_back({clamp(position), weight});
  }
  if (options.exclude_outside && kept_weight != 0.0) {
    for (Tap& tap : taps) tap.weight /= kept_weight;
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
    for (int64_t i = 0; i < out[2 + axis]; ++i) {
      taps[axis].push_back(TapsOf(axis, i, in[2 + axis], out[2 + axis], options));
    }
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

// image.grid_sample (ONNX GridSample): output (n, c, y, x) samples data plane (n, c) at the
// location grid[n, y, x] = (gx, gy), normalized to [-1, 1] over the input extent: with
// align_corners -1 and 1 are the centres of the corner pixels, else their outer edges. The
// location is first brought inside by the padding mode (border: clamped to the pixel centres;
// reflection: mirrored at the centres or the edges), then interpolated (nearest: rounded half
// to even; bilinear; bicubic with a = -0.75 over 4x4 pixels); each pixel read outside the
// input is 0 (zeros), the nearest border pixel (border) or its mirror image (reflection).
struct GridSampleOptions {
  std::string mode;
  std::string padding;
  bool align_corners = false;
};

GridSampleOptions GetGridSampleOptions(const Attrs& attrs) {
  return {GetChoice(attrs, "mode", {"bilinear", "nearest", "bicubic"}),
          GetChoice(attrs, "padding_mode", {"zeros", "border", "reflection"}), GetFlag(attrs, "align_corners")};
}

double Denormalize(double normalized, int64_t extent, bool align_corners) {
  const double length = static_cast<double>(extent);
  return align_corners ? (normalized + 1.0) / 2.0 * (length - 1.0) : ((normalized + 1.0) * length - 1.0) / 2.0;
}

// `x` mirrored into [low, high] as often as it takes.
double Reflect(double x, double low, double high) {
  const double range = high - low;
  if (range <= 0.0) return low;
  if (x >= low && x <= high) return x;
  const double distance = x < low ? low - x : x - high;
  const double periods = std::floor(distance / range);
  const double rest = distance - periods * range;
  const bool even = std::fmod(periods, 2.0) == 0.0;
  if (x < low) return even ? low + rest : high - rest;
  return even ? high - rest : low + rest;
}

// One plane of the input with the padding mode's reads outside it.
class GridPlane {
 public:
  GridPlane(const Tensor& data, int64_t offset, int64_t height, int64_t width, const GridSampleOptions& options)
      : data_(data), offset_(offset), height_(height), width_(width), options_(options) {}

  double Pixel(int64_t row, int64_t column) const {
    if (options_.padding == "zeros") {
      if (row < 0 || row >= height_ || column < 0 || column >= width_) return 0.0;
    } else if (options_.padding == "border") {
      row = std::clamp<int64_t>(row, 0, height_ - 1);
      column = std::clamp<int64_t>(column, 0, width_ - 1);
    } else {
      row = std::clamp<int64_t>(static_cast<int64_t>(Reflect(static_cast<double>(row), Low(), High(height_))), 0,
                                height_ - 1);
      column = std::clamp<int64_t>(static_cast<int64_t>(Reflect(static_cast<double>(column), Low(), High(width_))), 0,
                                   width_ - 1);
    }
    return LoadElement<double>(data_, offset_ + row * width_ + column);
  }

  // The mirror bounds of the reflection mode.
  double Low() const { return options_.align_corners ? 0.0 : -0.5; }
  double High(int64_t extent) const {
    return options_.align_corners ? static_cast<double>(extent - 1) : static_cast<double>(extent) - 0.5;
  }

 private:
  const Tensor& data_;
  int64_t offset_;
  int64_t height_;
  int64_t width_;
  const GridSampleOptions& options_;
};

double SampleGrid(const GridPlane& plane, double x, double y, const GridSampleOptions& options) {
  if (options.mode == "nearest") {
    return plane.Pixel(static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)));
  }
  if (options.mode == "bilinear") {
    const double left = std::floor(x);
    const double top = std::floor(y);
    const double dx = x - left;
    const double dy = y - top;
    const int64_t column = static_cast<int64_t>(left);
    const int64_t row = static_cast<int64_t>(top);
    return (1.0 - dy) * ((1.0 - dx) * plane.Pixel(row, column) + dx * plane.Pixel(row, column + 1)) +
           dy * ((1.0 - dx) * plane.Pixel(row + 1, column) + dx * plane.Pixel(row + 1, column + 1));
  }
  const double left = std::floor(x);
  const double top = std::floor(y);
  const std::array<double, 4> column_weights = CubicWeights(x - left, -0.75);
  const std::array<double, 4> row_weights = CubicWeights(y - top, -0.75);
  double sum = 0.0;
  for (int64_t i = 0; i < 4; ++i) {
    double row_sum = 0.0;
    for (int64_t j = 0; j < 4; ++j) {
      row_sum += column_weights[static_cast<size_t>(j)] *
                 plane.Pixel(static_cast<int64_t>(top) + i - 1, static_cast<int64_t>(left) + j - 1);
    }
    sum += row_weights[static_cast<size_t>(i)] * row_sum;
  }
  return sum;
}

Type GridSampleRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  const TensorTypeNode& grid = ExpectTensorArg(arg_types, 1, "grid");
  ExpectRank(data, 4, "data");
  ExpectFloat(data, "data");
  ExpectRank(grid, 4, "grid");
  ExpectSameDType(data, "data", grid, "grid");
  GetGridSampleOptions(attrs);
  if (grid.shape[3] != 2 || grid.shape[0] != data.shape[0]) {
    throw TypeError("grid must have shape (" + std::to_string(data.shape[0]) + ", height, width, 2), got " +
                    ShapeToString(grid.shape));
  }
  if (data.shape[2] < 1 || data.shape[3] < 1) throw TypeError("data must have a positive height and width");
  return TensorType(data.dtype, {data.shape[0], data.shape[1], grid.shape[1], grid.shape[2]});
}

std::vector<Tensor> GridSampleKernel(const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
  const Tensor& data = args[0];
  const Tensor& grid = args[1];
  const GridSampleOptions options = GetGridSampleOptions(attrs);
  Tensor result = AllocateResult(result_type);
  const Shape& in = data.shape();
  const Shape& out = result.shape();
  for (int64_t n = 0; n < out[0]; ++n) {
    for (int64_t c = 0; c < out[1]; ++c) {
      const GridPlane plane(data, (n * in[1] + c) * in[2] * in[3], in[2], in[3], options);
      for (int64_t y = 0; y < out[2]; ++y) {
        for (int64_t x = 0; x < out[3]; ++x) {
          const int64_t location = ((n * out[2] + y) * out[3] + x) * 2;
          double column = Denormalize(LoadElement<double>(grid, location), in[3], options.align_corners);
          double row = Denormalize(LoadElement<double>(grid, location + 1), in[2], options.align_corners);
          if (options.padding == "border") {
            column = std::clamp(column, 0.0, static_cast<double>(in[3] - 1));
            row = std::clamp(row, 0.0, static_cast<double>(in[2] - 1));
          } else if (options.padding == "reflection") {
            column = Reflect(column, plane.Low(), plane.High(in[3]));
            row = Reflect(row, plane.Low(), plane.High(in[2]));
          }
          StoreDouble(result, ((n * out[1] + c) * out[2] + y) * out[3] + x, SampleGrid(plane, column, row, options));
        }
      }
    }
  }
  return {result};
}

}  // namespace

void RegisterImageOps(OpRegistry& registry) {
  registry.Register("image.grid_sample")
      .Describe("ONNX GridSample: NCHW data sampled at the normalized locations of grid [N, height, width, 2]")
      .Args({"data", "grid"})
      .Attr("mode", AttrKind::kString, std::string("bilinear"))
      .Attr("padding_mode", AttrKind::kString, std::string("zeros"))
      .Attr("align_corners", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kOpaque)
      .Relation(GridSampleRelation)
      .Kernel(GridSampleKernel);
  registry.Register("image.resize2d")
      .Describe("ONNX Resize of the spatial axes of NCHW data to size [height, width] (nearest, linear, cubic); "
                "scales [height, width], when given, map output to input coordinates")
      .Args({"data"})
      .Attr("size", AttrKind::kInts)
      .Attr("method", AttrKind::kString, std::string("nearest"))
      .Attr("coordinate_transformation_mode", AttrKind::kString, std::string("half_pixel"))
      .Attr("rounding_method", AttrKind::kString, std::string("round_prefer_floor"))
      .Attr("cubic_coeff_a", AttrKind::kFloat, -0.75)
      .Attr("exclude_outside", AttrKind::kInt, int64_t{0})
      .Attr("scales", AttrKind::kFloats, std::vector<double>{})
      .Pattern(OpPatternKind::kInjective)
      .Relation(Resize2DRelation)
      .Kernel(MakeF32Kernel("image.resize2d", Resize2DRelation, Resize2DKernel));
}

}  // namespace collage
