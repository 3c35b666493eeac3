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
  EXPECT_EQ(OpRegistry::Global().Get("image.resize2d").pattern_kind, OpPatternKind::kInjective);
}

}  // namespace
}  // namespace collage
