#include <gtest/gtest.h>

#include "op/nn_test_util.h"

namespace collage {
namespace {

using nn_testing::EvaluateOp;
using nn_testing::ExpectTensorNear;
using nn_testing::F32;
using nn_testing::F32Type;
using nn_testing::InferTypeError;

using Ints = std::vector<int64_t>;

// [[1, 2], [3, 4]] resized to 4x4 with the given attributes.
Tensor Resize2x2To4x4(const std::string& method, const std::string& coordinate_mode,
                      const std::string& rounding = "round_prefer_floor") {
  return EvaluateOp("image.resize2d", {F32({1, 2, 3, 4}, {1, 1, 2, 2})},
                    {{"size", Ints{4, 4}},
                     {"method", method},
                     {"coordinate_transformation_mode", coordinate_mode},
                     {"rounding_method", rounding}});
}

// The 4x4 grid whose rows read source rows `rows` and columns source columns `columns` of
// [[1, 2], [3, 4]].
std::vector<double> NearestGrid(const std::vector<int>& rows, const std::vector<int>& columns) {
  std::vector<double> grid;
  for (int row : rows) {
    for (int column : columns) grid.push_back(1 + column + 2 * row);
  }
  return grid;
}

// [[1, 2], [3, 4]] is 1 + c + 2r, so linear interpolation at source coordinates (r, c) gives
// exactly 1 + c + 2r; `coordinates` are the (clamped) source coordinates of the 4 outputs.
std::vector<double> LinearGrid(const std::vector<double>& coordinates) {
  std::vector<double> grid;
  for (double row : coordinates) {
    for (double column : coordinates) grid.push_back(1 + column + 2 * row);
  }
  return grid;
}

TEST(ImageResize2DTest, NearestHalfPixel) {
  // Source coordinates -0.25, 0.25, 0.75, 1.25 round to 0, 0, 1, 1.
  ExpectTensorNear(Resize2x2To4x4("nearest", "half_pixel"), {1, 1, 4, 4}, NearestGrid({0, 0, 1, 1}, {0, 0, 1, 1}));
  // Ceil: 0, 1, 1, 2 -> clamped to 1.
  ExpectTensorNear(Resize2x2To4x4("nearest", "half_pixel", "ceil"), {1, 1, 4, 4},
                   NearestGrid({0, 1, 1, 1}, {0, 1, 1, 1}));
}

TEST(ImageResize2DTest, NearestAsymmetricTies) {
  // Source coordinates 0, 0.5, 1, 1.5: ties go down or up by the rounding method.
  ExpectTensorNear(Resize2x2To4x4("nearest", "asymmetric", "round_prefer_floor"), {1, 1, 4, 4},
                   NearestGrid({0, 0, 1, 1}, {0, 0, 1, 1}));
  ExpectTensorNear(Resize2x2To4x4("nearest", "asymmetric", "round_prefer_ceil"), {1, 1, 4, 4},
                   NearestGrid({0, 1, 1, 1}, {0, 1, 1, 1}));
  ExpectTensorNear(Resize2x2To4x4("nearest", "asymmetric", "floor"), {1, 1, 4, 4},
                   NearestGrid({0, 0, 1, 1}, {0, 0, 1, 1}));
}

TEST(ImageResize2DTest, NearestAlignCornersAndPytorchHalfPixel) {
  // align_corners: 0, 1/3, 2/3, 1 round to 0, 0, 1, 1.
  ExpectTensorNear(Resize2x2To4x4("nearest", "align_corners"), {1, 1, 4, 4}, NearestGrid({0, 0, 1, 1}, {0, 0, 1, 1}));
  ExpectTensorNear(Resize2x2To4x4("nearest", "pytorch_half_pixel", "round_prefer_ceil"), {1, 1, 4, 4},
                   NearestGrid({0, 0, 1, 1}, {0, 0, 1, 1}));
}

TEST(ImageResize2DTest, NearestDownsamplesThreeByThree) {
  // 3 -> 2 with half_pixel: source coordinates 0.25 and 1.75 round to 0 and 2.
  Tensor out = EvaluateOp("image.resize2d", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3})}, {{"size", Ints{2, 2}}});
  ExpectTensorNear(out, {1, 1, 2, 2}, {1, 3, 7, 9});
}

TEST(ImageResize2DTest, LinearHalfPixel) {
  // -0.25 clamps to 0, then 0.25, 0.75, and 1.25 clamps to 1.
  ExpectTensorNear(Resize2x2To4x4("linear", "half_pixel"), {1, 1, 4, 4}, LinearGrid({0, 0.25, 0.75, 1}));
}

TEST(ImageResize2DTest, LinearAlignCorners) {
  ExpectTensorNear(Resize2x2To4x4("linear", "align_corners"), {1, 1, 4, 4}, LinearGrid({0, 1.0 / 3, 2.0 / 3, 1}));
}

TEST(ImageResize2DTest, LinearAsymmetric) {
  ExpectTensorNear(Resize2x2To4x4("linear", "asymmetric"), {1, 1, 4, 4}, LinearGrid({0, 0.5, 1, 1}));
}

TEST(ImageResize2DTest, LinearPytorchHalfPixel) {
  ExpectTensorNear(Resize2x2To4x4("linear", "pytorch_half_pixel"), {1, 1, 4, 4}, LinearGrid({0, 0.25, 0.75, 1}));
  // A single output reads source coordinate 0 with pytorch_half_pixel but the centre 0.5 with half_pixel.
  Tensor data = F32({1, 2, 3, 4}, {1, 1, 2, 2});
  Attrs attrs = {{"size", Ints{1, 1}}, {"method", "linear"}, {"coordinate_transformation_mode", "pytorch_half_pixel"}};
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, attrs), {1, 1, 1, 1}, {1});
  attrs.Set("coordinate_transformation_mode", std::string("half_pixel"));
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, attrs), {1, 1, 1, 1}, {2.5});
}

TEST(ImageResize2DTest, CubicUsesKeysWeightsWithEdgePadding) {
  // With a = -0.75 the weights at t = 0.5 are -0.09375, 0.59375, 0.59375, -0.09375. Asymmetric
  // coordinates x / 2 of [0, 1, 2, 3]; neighbours beyond the border repeat it, so 0.5 reads
  // 0, 0, 1, 2 and 3.5 reads 2, 3, 3, 3.
  Tensor out =
      EvaluateOp("image.resize2d", {F32({0, 1, 2, 3}, {1, 1, 1, 4})},
                 {{"size", Ints{1, 8}}, {"method", "cubic"}, {"coordinate_transformation_mode", "asymmetric"}});
  ExpectTensorNear(out, {1, 1, 1, 8}, {0, 0.40625, 1, 1.5, 2, 2.59375, 3, 3.09375});
}

TEST(ImageResize2DTest, GivenScalesMapCoordinatesInsteadOfTheExtents) {
  // 5 -> 2 columns by scale 0.5 (floor(2.5) = 2): half_pixel reads (x + 0.5) / 0.5 - 0.5 = 0.5
  // and 2.5; from the extents (scale 0.4) it would read 0.75 and 3.25.
  Tensor data = F32({0, 1, 2, 3, 4}, {1, 1, 1, 5});
  Attrs attrs = {{"size", Ints{1, 2}}, {"method", "linear"}, {"scales", std::vector<double>{1.0, 0.5}}};
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, attrs), {1, 1, 1, 2}, {0.5, 2.5});
  attrs.Set("scales", std::vector<double>{});
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, attrs), {1, 1, 1, 2}, {0.75, 3.25});
  // align_corners divides by in * scale - 1: 4 columns by 0.6 give 2, the second at
  // 1 * 3 / (2.4 - 1) = 2.142857 rather than 3 / (2 - 1).
  Tensor four = F32({0, 1, 2, 3}, {1, 1, 1, 4});
  Attrs corners = {{"size", Ints{1, 2}},
                   {"method", "linear"},
                   {"coordinate_transformation_mode", "align_corners"},
                   {"scales", std::vector<double>{1.0, 0.6}}};
  ExpectTensorNear(EvaluateOp("image.resize2d", {four}, corners), {1, 1, 1, 2}, {0, 3.0 / 1.4});
}

TEST(ImageResize2DTest, TfHalfPixelForNearestOmitsTheHalfPixelShift) {
  // 4 -> 2: (x + 0.5) / 0.5 is 1 and 3; half_pixel's 0.5 and 2.5 round (prefer floor) to 0 and 2.
  Tensor data = F32({0, 1, 2, 3}, {1, 1, 1, 4});
  Attrs attrs = {{"size", Ints{1, 2}}, {"coordinate_transformation_mode", "tf_half_pixel_for_nn"}};
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, attrs), {1, 1, 1, 2}, {1, 3});
  attrs.Set("coordinate_transformation_mode", std::string("half_pixel"));
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, attrs), {1, 1, 1, 2}, {0, 2});
}

TEST(ImageResize2DTest, CubicExcludeOutsideRenormalizesTheInsideTaps) {
  // Output 0 of [0, 1, 2, 3] by 2 (asymmetric) reads coordinate 0: taps at -1, 0, 1, 2 with
  // a = -0.75 weigh 0, 1, 0, 0 at t = 0, so it is 0 either way; output 1 reads 0.5: weights
  // -0.09375, 0.59375, 0.59375, -0.09375 on positions -1 (outside), 0, 1, 2. Excluding the
  // outside tap leaves (0.59375 * 0 + 0.59375 * 1 - 0.09375 * 2) / 1.09375 = 0.371428...;
  // edge padding gives 0.40625.
  Tensor data = F32({0, 1, 2, 3}, {1, 1, 1, 4});
  Attrs attrs = {{"size", Ints{1, 8}},
                 {"method", "cubic"},
                 {"coordinate_transformation_mode", "asymmetric"},
                 {"exclude_outside", int64_t{1}}};
  Tensor excluded = EvaluateOp("image.resize2d", {data}, attrs);
  const double renormalized = (0.59375 - 0.09375 * 2) / 1.09375;
  EXPECT_NEAR(excluded.data<float>()[1], renormalized, 1e-6 * renormalized);
  attrs.Set("exclude_outside", int64_t{0});
  EXPECT_NEAR(EvaluateOp("image.resize2d", {data}, attrs).data<float>()[1], 0.40625, 1e-6);
}

// [[1, 2], [3, 4]] sampled at one normalized location (gx, gy).
double GridSample2x2(double gx, double gy, const Attrs& attrs) {
  Tensor out = EvaluateOp("image.grid_sample", {F32({1, 2, 3, 4}, {1, 1, 2, 2}), F32({static_cast<float>(gx),
                                                                                       static_cast<float>(gy)},
                                                                                      {1, 1, 1, 2})},
                          attrs);
  return out.data<float>()[0];
}

TEST(ImageGridSampleTest, CornersCentreAndPaddingModes) {
  const Attrs corners = {{"align_corners", int64_t{1}}};
  EXPECT_NEAR(GridSample2x2(-1, -1, corners), 1, 1e-6);
  EXPECT_NEAR(GridSample2x2(1, -1, corners), 2, 1e-6);
  EXPECT_NEAR(GridSample2x2(0, 0, corners), 2.5, 1e-6);
  EXPECT_NEAR(GridSample2x2(0.2, 0.2, {{"align_corners", int64_t{1}}, {"mode", "nearest"}}), 4, 1e-6);
  // Without align_corners (-1, -1) is the outer corner, pixel coordinate (-0.5, -0.5): a quarter
  // of pixel (0, 0) and three reads outside, which are 0, the border pixel or its mirror image.
  EXPECT_NEAR(GridSample2x2(-1, -1, {}), 0.25, 1e-6);
  EXPECT_NEAR(GridSample2x2(-1, -1, {{"padding_mode", "border"}}), 1, 1e-6);
  EXPECT_NEAR(GridSample2x2(-1, -1, {{"padding_mode", "reflection"}}), 1, 1e-6);
  // Bicubic at a pixel centre reproduces the pixel.
  EXPECT_NEAR(GridSample2x2(1, 1, {{"align_corners", int64_t{1}}, {"mode", "bicubic"}}), 4, 1e-6);
}

TEST(ImageGridSampleTest, RelationErrors) {
  EXPECT_EQ(InferTypeError("image.grid_sample", {F32Type({1, 1, 2, 2}), F32Type({1, 3, 3, 3})}),
            "image.grid_sample: grid must have shape (1, height, width, 2), got (1, 3, 3, 3)");
  EXPECT_EQ(InferTypeError("image.grid_sample", {F32Type({1, 1, 2, 2}), F32Type({1, 3, 3, 2})}, {{"mode", "area"}}),
            "image.grid_sample: attribute mode must be one of \"bilinear\", \"nearest\", \"bicubic\", got \"area\"");
}

TEST(ImageResize2DTest, ResizesEveryPlane) {
  Tensor data = F32({1, 2, 3, 4}, {2, 2, 1, 1});
  ExpectTensorNear(EvaluateOp("image.resize2d", {data}, {{"size", Ints{1, 2}}}), {2, 2, 1, 2},
                   {1, 1, 2, 2, 3, 3, 4, 4});
}

TEST(ImageResize2DTest, AttributeAndShapeErrors) {
  EXPECT_EQ(InferTypeError("image.resize2d", {F32Type({1, 1, 2, 2})}, {{"size", Ints{0, 4}}}),
            "image.resize2d: attribute size[0] must be at least 1, got 0");
  EXPECT_EQ(InferTypeError("image.resize2d", {F32Type({1, 1, 2, 2})}, {{"size", Ints{4, 4}}, {"method", "area"}}),
            "image.resize2d: attribute method must be one of \"nearest\", \"linear\", \"cubic\", got \"area\"");
  EXPECT_EQ(InferTypeError("image.resize2d", {F32Type({1, 2, 2})}, {{"size", Ints{4, 4}}}),
            "image.resize2d: data must have rank 4, got shape (1, 2, 2)");
  EXPECT_EQ(InferTypeError("image.resize2d", {F32Type({1, 1, 2, 0})}, {{"size", Ints{4, 4}}}),
            "image.resize2d: data width (dimension 3) must be positive, got 0");
  EXPECT_EQ(InferTypeError("image.resize2d", {F32Type({1, 1, 2, 2})},
                           {{"size", Ints{4, 4}}, {"scales", std::vector<double>{2.0}}}),
            "image.resize2d: attribute scales must have 2 values (height, width) or none, got 1");
  EXPECT_EQ(InferTypeError("image.resize2d", {F32Type({1, 1, 2, 2})},
                           {{"size", Ints{4, 4}}, {"scales", std::vector<double>{2.0, 0.0}}}),
            "image.resize2d: attribute scales must be positive and finite");
  EXPECT_EQ(OpRegistry::Global().Get("image.resize2d").pattern_kind, OpPatternKind::kInjective);
}

}  // namespace
}  // namespace collage
