#include <gtest/gtest.h>

#include <cmath>

#include "op/nn_test_util.h"

namespace collage {
namespace {

using nn_testing::EvaluateOp;
using nn_testing::ExpectTensorNear;
using nn_testing::F32;
using nn_testing::F32Type;
using nn_testing::InferCallType;
using nn_testing::InferTypeError;

using Ints = std::vector<int64_t>;

// A (1, 1, rows, columns) tensor whose element (r, c) is r * columns + c.
Tensor RowMajorIota(int64_t rows, int64_t columns) {
  std::vector<float> values;
  for (int64_t i = 0; i < rows * columns; ++i) values.push_back(static_cast<float>(i));
  return F32(values, {1, 1, rows, columns});
}

TEST(NNMaxPool2DTest, NonOverlappingWindows) {
  Tensor out = EvaluateOp("nn.max_pool2d", {RowMajorIota(4, 4)}, {{"pool_size", Ints{2, 2}}, {"strides", Ints{2, 2}}});
  ExpectTensorNear(out, {1, 1, 2, 2}, {5, 7, 13, 15});
}

TEST(NNMaxPool2DTest, CeilModeKeepsPartialWindows) {
  // Rows and columns are pooled as {0,1}, {2,3}, {4}: the maximum is 5 * last row + last column.
  Attrs attrs = {{"pool_size", Ints{2, 2}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}};
  ExpectTensorNear(EvaluateOp("nn.max_pool2d", {RowMajorIota(5, 5)}, attrs), {1, 1, 3, 3},
                   {6, 8, 9, 16, 18, 19, 21, 23, 24});
  attrs.Set("ceil_mode", int64_t{0});
  ExpectTensorNear(EvaluateOp("nn.max_pool2d", {RowMajorIota(5, 5)}, attrs), {1, 1, 2, 2}, {6, 8, 16, 18});
}

TEST(NNMaxPool2DTest, CeilModeDropsAWindowStartingInTheEndPadding) {
  // Padded extent 7, so ceil gives 4 windows, but the fourth would start at 6 >= 5 + 1.
  Type type = InferCallType(
      "nn.max_pool2d", {F32Type({1, 1, 5, 5})},
      {{"pool_size", Ints{2, 2}}, {"strides", Ints{2, 2}}, {"padding", Ints{1, 1, 1, 1}}, {"ceil_mode", int64_t{1}}});
  EXPECT_TRUE(TypeEqual(type, F32Type({1, 1, 3, 3}))) << TypeToString(type);
}

TEST(NNMaxPool2DTest, PaddingNeverWins) {
  // All data is negative, so a zero from the padding would show up if it took part.
  Tensor data = F32({-1, -2, -3, -4}, {1, 1, 2, 2});
  Tensor out = EvaluateOp("nn.max_pool2d", {data}, {{"pool_size", Ints{2, 2}}, {"padding", Ints{1, 1, 1, 1}}});
  ExpectTensorNear(out, {1, 1, 3, 3}, {-1, -1, -2, -1, -1, -2, -3, -3, -4});
}

TEST(NNMaxPool2DTest, Dilation) {
  Tensor data = F32({1, 5, 2, 4, 3}, {1, 1, 1, 5});
  Attrs attrs = {{"pool_size", Ints{1, 2}}, {"dilation", Ints{1, 2}}};
  ExpectTensorNear(EvaluateOp("nn.max_pool2d", {data}, attrs), {1, 1, 1, 3}, {2, 5, 3});
  ExpectTensorNear(EvaluateOp("nn.avg_pool2d", {data}, attrs), {1, 1, 1, 3}, {1.5, 4.5, 2.5});
}

TEST(NNMaxPool2DTest, PoolsEveryPlaneSeparately) {
  Tensor data = F32({1, 2, 3, 4, 8, 7, 6, 5}, {2, 1, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.max_pool2d", {data}, {{"pool_size", Ints{2, 1}}}), {2, 1, 1, 2}, {3, 4, 8, 7});
}

TEST(NNMaxPool2DTest, ShapeErrorsNameTheDimension) {
  std::string message = InferTypeError("nn.max_pool2d", {F32Type({1, 1, 2, 2})}, {{"pool_size", Ints{3, 1}}});
  EXPECT_EQ(message.rfind("nn.max_pool2d: output height would be empty", 0), 0u) << message;
  message = InferTypeError("nn.max_pool2d", {F32Type({1, 1, 4, 4})}, {{"pool_size", Ints{2, 0}}});
  EXPECT_EQ(message, "nn.max_pool2d: attribute pool_size[1] must be at least 1, got 0");
  message = InferTypeError("nn.max_pool2d", {F32Type({1, 4, 4})}, {{"pool_size", Ints{2, 2}}});
  EXPECT_NE(message.find("data must have rank 4"), std::string::npos) << message;
  message =
      InferTypeError("nn.max_pool2d", {F32Type({1, 1, 4, 4})}, {{"pool_size", Ints{2, 2}}, {"ceil_mode", int64_t{2}}});
  EXPECT_EQ(message, "nn.max_pool2d: attribute ceil_mode must be 0 or 1, got 2");
  message = InferTypeError("nn.max_pool2d", {F32Type({1, 1, 4, 4})});
  EXPECT_EQ(message, "nn.max_pool2d: missing required attribute 'pool_size'");
}

TEST(NNAvgPool2DTest, CountIncludePadBothWays) {
  Tensor data = F32({1, 2, 3, 4}, {1, 1, 2, 2});
  Attrs attrs = {{"pool_size", Ints{2, 2}}, {"padding", Ints{1, 1, 1, 1}}};
  // Divided by the in-bounds count: corners see 1 element, edges 2, the centre 4.
  ExpectTensorNear(EvaluateOp("nn.avg_pool2d", {data}, attrs), {1, 1, 3, 3}, {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  attrs.Set("count_include_pad", int64_t{1});
  // Every window lies inside the padded bounds: always divided by 4.
  ExpectTensorNear(EvaluateOp("nn.avg_pool2d", {data}, attrs), {1, 1, 3, 3},
                   {0.25, 0.75, 0.5, 1, 2.5, 1.5, 0.75, 1.75, 1});
}

TEST(NNAvgPool2DTest, CountIncludePadClipsWindowsToThePaddedBounds) {
  // Width 4 padded by 1 on each side; ceil mode gives windows at -1, 1 and 3 covering
  // taps {-1,0,1}, {1,2,3}, {3,4,5}; tap 5 is outside even the padded bounds [-1, 5).
  Tensor data = F32({1, 2, 3, 4}, {1, 1, 1, 4});
  Attrs attrs = {
      {"pool_size", Ints{1, 3}}, {"strides", Ints{1, 2}}, {"padding", Ints{0, 1, 0, 1}}, {"ceil_mode", int64_t{1}}};
  ExpectTensorNear(EvaluateOp("nn.avg_pool2d", {data}, attrs), {1, 1, 1, 3}, {1.5, 3, 4});
  attrs.Set("count_include_pad", int64_t{1});
  ExpectTensorNear(EvaluateOp("nn.avg_pool2d", {data}, attrs), {1, 1, 1, 3}, {1, 3, 2});
}

TEST(NNAvgPool2DTest, CeilModePartialWindowsAverageTheirElements) {
  Attrs attrs = {{"pool_size", Ints{2, 2}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}};
  // Windows over r * 5 + c: e.g. (0, 2) covers {4, 9}, (2, 2) only {24}.
  ExpectTensorNear(EvaluateOp("nn.avg_pool2d", {RowMajorIota(5, 5)}, attrs), {1, 1, 3, 3},
                   {3, 5, 6.5, 13, 15, 16.5, 20.5, 22.5, 24});
}

TEST(NNAvgPool2DTest, ShapeErrorNamesTheDimension) {
  std::string message = InferTypeError("nn.avg_pool2d", {F32Type({1, 1, 4, 2})}, {{"pool_size", Ints{2, 3}}});
  EXPECT_EQ(message.rfind("nn.avg_pool2d: output width would be empty: data width 2", 0), 0u) << message;
  message = InferTypeError("nn.avg_pool2d", {F32Type({1, 1, 4, 4})},
                           {{"pool_size", Ints{2, 2}}, {"count_include_pad", int64_t{-1}}});
  EXPECT_EQ(message, "nn.avg_pool2d: attribute count_include_pad must be 0 or 1, got -1");
}

TEST(NNGlobalPool2DTest, AverageAndMaximumPerPlane) {
  Tensor data = F32({1, 2, 3, 4, -1, -5, 0, 2}, {1, 2, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.global_avg_pool2d", {data}), {1, 2, 1, 1}, {2.5, -1});
  ExpectTensorNear(EvaluateOp("nn.global_max_pool2d", {data}), {1, 2, 1, 1}, {4, 2});
}

TEST(NNGlobalPool2DTest, RejectsWrongRank) {
  EXPECT_EQ(InferTypeError("nn.global_avg_pool2d", {F32Type({2, 3})}),
            "nn.global_avg_pool2d: data must have rank 4, got shape (2, 3)");
  EXPECT_NE(InferTypeError("nn.global_max_pool2d", {F32Type({1, 1, 0, 3})}).find("data height (dimension 2)"),
            std::string::npos);
}

TEST(NNAdaptiveAvgPool2DTest, TorchWindowBoundaries) {
  // Width 5 into 3 cells: [0, 2), [1, 4), [3, 5).
  Tensor data = F32({1, 2, 3, 4, 5}, {1, 1, 1, 5});
  ExpectTensorNear(EvaluateOp("nn.adaptive_avg_pool2d", {data}, {{"output_size", Ints{1, 3}}}), {1, 1, 1, 3},
                   {1.5, 3, 4.5});
}

TEST(NNAdaptiveAvgPool2DTest, EvenDivisionIsAnAveragePool) {
  ExpectTensorNear(EvaluateOp("nn.adaptive_avg_pool2d", {RowMajorIota(4, 4)}, {{"output_size", Ints{2, 2}}}),
                   {1, 1, 2, 2}, {2.5, 4.5, 10.5, 12.5});
}

TEST(NNAdaptiveAvgPool2DTest, UpsamplingRepeatsElements) {
  // Height 1 into 2 cells: both cover [0, 1).
  ExpectTensorNear(EvaluateOp("nn.adaptive_avg_pool2d", {F32({7, 9}, {1, 1, 1, 2})}, {{"output_size", Ints{2, 1}}}),
                   {1, 1, 2, 1}, {8, 8});
}

TEST(NNAdaptiveAvgPool2DTest, RejectsBadOutputSize) {
  EXPECT_EQ(InferTypeError("nn.adaptive_avg_pool2d", {F32Type({1, 1, 4, 4})}, {{"output_size", Ints{0, 1}}}),
            "nn.adaptive_avg_pool2d: attribute output_size[0] must be at least 1, got 0");
  EXPECT_EQ(InferTypeError("nn.adaptive_avg_pool2d", {F32Type({1, 1, 4, 4})}, {{"output_size", Ints{2}}}),
            "nn.adaptive_avg_pool2d: attribute output_size must have 2 entries, got [2]");
}

TEST(NNPoolingTest, RegisteredAsOutEWiseFusable) {
  for (const char* name :
       {"nn.max_pool2d", "nn.avg_pool2d", "nn.global_avg_pool2d", "nn.global_max_pool2d", "nn.adaptive_avg_pool2d"}) {
    EXPECT_EQ(OpRegistry::Global().Get(name).pattern_kind, OpPatternKind::kOutEWiseFusable) << name;
  }
  EXPECT_NE(OpRegistry::Global().Get("nn.avg_pool2d").FindAttr("count_include_pad"), nullptr);
  EXPECT_EQ(OpRegistry::Global().Get("nn.max_pool2d").FindAttr("count_include_pad"), nullptr);
}

}  // namespace
}  // namespace collage
