#include <gtest/gtest.h>

#include "op/nn_test_util.h"

namespace collage {
namespace {

using nn_testing::EvaluateOp;
using nn_testing::ExpectTensorNear;
using nn_testing::ExpectTensorsNear;
using nn_testing::F32;
using nn_testing::F32Type;
using nn_testing::InferCallType;
using nn_testing::InferTypeError;

// A (1, 1, rows, columns) tensor whose element (r, c) is r * columns + c.
Tensor RowMajorIota(int64_t rows, int64_t columns) {
  std::vector<float> values;
  for (int64_t i = 0; i < rows * columns; ++i) values.push_back(static_cast<float>(i));
  return F32(values, {1, 1, rows, columns});
}

Tensor Ones(Shape shape) { return F32(std::vector<float>(static_cast<size_t>(NumElements(shape)), 1.0f), shape); }

TEST(NNConv2DTest, HandComputedSingleChannel) {
  // [[1,2,3],[4,5,6],[7,8,9]] * [[1,2],[3,4]]: 1+4+12+20, 2+6+15+24, 4+10+21+32, 5+12+24+36.
  Tensor data = F32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 3, 3});
  Tensor weight = F32({1, 2, 3, 4}, {1, 1, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.conv2d", {data, weight}), {1, 1, 2, 2}, {37, 47, 67, 77});
}

TEST(NNConv2DTest, OddSizedInputWithBoxFilter) {
  // A 3x3 box over r * 7 + c sums to 9 * (7 * (y + 1) + (x + 1)).
  Tensor out = EvaluateOp("nn.conv2d", {RowMajorIota(5, 7), Ones({1, 1, 3, 3})});
  std::vector<double> expected;
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 5; ++x) expected.push_back(9.0 * (7 * (y + 1) + (x + 1)));
  }
  ExpectTensorNear(out, {1, 1, 3, 5}, expected);
}

TEST(NNConv2DTest, StrideTwo) {
  // Window centres at (2y + 1, 2x + 1) of r * 7 + c.
  Tensor out =
      EvaluateOp("nn.conv2d", {RowMajorIota(5, 7), Ones({1, 1, 3, 3})}, {{"strides", std::vector<int64_t>{2, 2}}});
  ExpectTensorNear(out, {1, 1, 2, 3}, {72, 90, 108, 198, 216, 234});
}

TEST(NNConv2DTest, AsymmetricPadding) {
  Tensor data = F32({1, 2, 3, 4}, {1, 1, 2, 2});
  // Top 1, left 0, bottom 0, right 2 with a 1x1 identity kernel: the data moved into a 3x4 frame.
  Tensor framed = EvaluateOp("nn.conv2d", {data, Ones({1, 1, 1, 1})}, {{"padding", std::vector<int64_t>{1, 0, 0, 2}}});
  ExpectTensorNear(framed, {1, 1, 3, 4}, {0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0});
  // Top 1, left 1 only with a 2x2 box: windows starting at (-1,-1), (-1,0), (0,-1), (0,0).
  Tensor boxed = EvaluateOp("nn.conv2d", {data, Ones({1, 1, 2, 2})}, {{"padding", std::vector<int64_t>{1, 1, 0, 0}}});
  ExpectTensorNear(boxed, {1, 1, 2, 2}, {1, 3, 4, 10});
}

TEST(NNConv2DTest, DilationTwo) {
  // Taps at (y, x), (y, x+2), (y+2, x), (y+2, x+2) of 5r + c weighted 1, 2, 3, 4: 10 * (5y + x) + 82.
  Tensor out = EvaluateOp("nn.conv2d", {RowMajorIota(5, 5), F32({1, 2, 3, 4}, {1, 1, 2, 2})},
                          {{"dilation", std::vector<int64_t>{2, 2}}});
  ExpectTensorNear(out, {1, 1, 3, 3}, {82, 92, 102, 132, 142, 152, 182, 192, 202});
}

TEST(NNConv2DTest, GroupsSplitChannels) {
  // Group 0 sums channels 0 and 1; group 1 computes channel 2 minus channel 3.
  Tensor data = F32({1, 2, 3, 4}, {1, 4, 1, 1});
  Tensor weight = F32({1, 1, 1, -1}, {2, 2, 1, 1});
  ExpectTensorNear(EvaluateOp("nn.conv2d", {data, weight}, {{"groups", int64_t{2}}}), {1, 2, 1, 1}, {3, -1});
}

TEST(NNConv2DTest, Depthwise) {
  Tensor data = F32({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 2, 2});
  Tensor weight = F32({1, 1, 1, 1, 1, 0, 0, -1}, {2, 1, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.conv2d", {data, weight}, {{"groups", int64_t{2}}}), {1, 2, 1, 1}, {10, 5 - 8});
  // Channel multiplier 2: output channels 0, 1 read input 0 and 2, 3 read input 1.
  Tensor multiplied =
      EvaluateOp("nn.conv2d", {F32({5, 6}, {1, 2, 1, 1}), F32({1, 2, 3, 4}, {4, 1, 1, 1})}, {{"groups", int64_t{2}}});
  ExpectTensorNear(multiplied, {1, 4, 1, 1}, {5, 10, 18, 24});
}

// The textbook definition: zero-pad the data explicitly, then sum over every channel of the
// group and every kernel tap.
Tensor NaiveConv2D(const Tensor& data, const Tensor& weight, const Attrs& attrs) {
  const int64_t stride_h = attrs.GetInts("strides")[0], stride_w = attrs.GetInts("strides")[1];
  const int64_t dilation_h = attrs.GetInts("dilation")[0], dilation_w = attrs.GetInts("dilation")[1];
  const std::vector<int64_t>& padding = attrs.GetInts("padding");
  const int64_t pad_top = padding[0], pad_left = padding[1], pad_bottom = padding[2], pad_right = padding[3];
  const int64_t groups = attrs.GetInt("groups");
  const int64_t batch = data.shape()[0], channels = data.shape()[1], height = data.shape()[2], width = data.shape()[3];
  const int64_t out_channels = weight.shape()[0], kernel_h = weight.shape()[2], kernel_w = weight.shape()[3];
  const int64_t padded_h = height + pad_top + pad_bottom, padded_w = width + pad_left + pad_right;
  std::vector<double> padded(static_cast<size_t>(batch * channels * padded_h * padded_w), 0.0);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t h = 0; h < height; ++h)
        for (int64_t w = 0; w < width; ++w)
          padded[((n * channels + c) * padded_h + h + pad_top) * padded_w + w + pad_left] =
              data.GetAsDouble(((n * channels + c) * height + h) * width + w);
  const int64_t out_h = (padded_h - dilation_h * (kernel_h - 1) - 1) / stride_h + 1;
  const int64_t out_w = (padded_w - dilation_w * (kernel_w - 1) - 1) / stride_w + 1;
  const int64_t channels_per_group = channels / groups, outputs_per_group = out_channels / groups;
  Tensor out = Tensor::Zeros(DType::kF32, {batch, out_channels, out_h, out_w});
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < out_channels; ++o)
      for (int64_t y = 0; y < out_h; ++y)
        for (int64_t x = 0; x < out_w; ++x) {
          double sum = 0;
          for (int64_t i = 0; i < channels_per_group; ++i)
            for (int64_t ky = 0; ky < kernel_h; ++ky)
              for (int64_t kx = 0; kx < kernel_w; ++kx) {
                const int64_t c = (o / outputs_per_group) * channels_per_group + i;
                sum += padded[((n * channels + c) * padded_h + y * stride_h + ky * dilation_h) * padded_w +
                              x * stride_w + kx * dilation_w] *
                       weight.GetAsDouble(((o * channels_per_group + i) * kernel_h + ky) * kernel_w + kx);
              }
          out.SetFromDouble(((n * out_channels + o) * out_h + y) * out_w + x, sum);
        }
  return out;
}

TEST(NNConv2DTest, RandomCaseMatchesNaiveDefinition) {
  Tensor data = Tensor::Random(DType::kF32, {2, 4, 7, 6}, 1);
  Tensor weight = Tensor::Random(DType::kF32, {6, 2, 3, 2}, 2);
  Attrs attrs = {{"strides", std::vector<int64_t>{2, 1}},
                 {"padding", std::vector<int64_t>{1, 0, 2, 1}},
                 {"dilation", std::vector<int64_t>{1, 2}},
                 {"groups", int64_t{2}}};
  Tensor out = EvaluateOp("nn.conv2d", {data, weight}, attrs);
  // Height (7 + 3 - 3) / 2 + 1 = 4, width (6 + 1 - 3) / 1 + 1 = 5.
  ASSERT_EQ(out.shape(), (Shape{2, 6, 4, 5}));
  ExpectTensorsNear(out, NaiveConv2D(data, weight, attrs));
}

TEST(NNConv2DTest, InfersOutputShapeThroughInferType) {
  Type type = InferCallType("nn.conv2d", {F32Type({1, 3, 224, 224}), F32Type({64, 3, 7, 7})},
                            {{"strides", std::vector<int64_t>{2, 2}}, {"padding", std::vector<int64_t>{3, 3, 3, 3}}});
  EXPECT_TRUE(TypeEqual(type, F32Type({1, 64, 112, 112}))) << TypeToString(type);
}

TEST(NNConv2DTest, ChannelMismatchNamesDimension) {
  std::string message = InferTypeError("nn.conv2d", {F32Type({1, 3, 5, 5}), F32Type({4, 2, 3, 3})});
  EXPECT_EQ(message.rfind("nn.conv2d: ", 0), 0u) << message;
  EXPECT_NE(message.find("data channels (dimension 1) 3"), std::string::npos) << message;
  EXPECT_NE(message.find("weight input channels (dimension 1) 2"), std::string::npos) << message;
}

TEST(NNConv2DTest, OutputChannelsMustDivideByGroups) {
  std::string message =
      InferTypeError("nn.conv2d", {F32Type({1, 4, 5, 5}), F32Type({3, 2, 1, 1})}, {{"groups", int64_t{2}}});
  EXPECT_NE(message.find("nn.conv2d: weight output channels (dimension 0) 3 must be divisible by groups 2"),
            std::string::npos)
      << message;
}

TEST(NNConv2DTest, EmptyOutputNamesSpatialDimension) {
  std::string message = InferTypeError("nn.conv2d", {F32Type({1, 1, 2, 5}), F32Type({1, 1, 3, 3})});
  EXPECT_EQ(message.rfind("nn.conv2d: output height would be empty", 0), 0u) << message;
  message = InferTypeError("nn.conv2d", {F32Type({1, 1, 5, 5}), F32Type({1, 1, 3, 3})},
                           {{"dilation", std::vector<int64_t>{1, 3}}});
  EXPECT_NE(message.find("dilated weight width 7"), std::string::npos) << message;
}

TEST(NNConv2DTest, RejectsMalformedAttributes) {
  EXPECT_NE(InferTypeError("nn.conv2d", {F32Type({1, 1, 5, 5}), F32Type({1, 1, 3, 3})},
                           {{"strides", std::vector<int64_t>{1}}})
                .find("attribute strides must have 2 entries"),
            std::string::npos);
  EXPECT_NE(InferTypeError("nn.conv2d", {F32Type({1, 1, 5, 5}), F32Type({1, 1, 3, 3})},
                           {{"padding", std::vector<int64_t>{0, -1, 0, 0}}})
                .find("attribute padding[1] must be at least 0"),
            std::string::npos);
  EXPECT_NE(InferTypeError("nn.conv2d", {F32Type({1, 1, 5, 5}), F32Type({1, 1, 3})}).find("weight must have rank 4"),
            std::string::npos);
}

TEST(NNConv2DTest, KernelRejectsNonF32) {
  Tensor data = Tensor::Zeros(DType::kI32, {1, 1, 3, 3});
  Tensor weight = Tensor::Zeros(DType::kI32, {1, 1, 1, 1});
  try {
    EvaluateOp("nn.conv2d", {data, weight});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("nn.conv2d: the reference kernel supports only f32"), std::string::npos)
        << error.what();
  }
}

TEST(NNConv2DTest, KernelRejectsArgumentsThatDoNotMatchTheResultType) {
  const OpDef& op = OpRegistry::Global().Get("nn.conv2d");
  Attrs attrs = NormalizeAttrs(op, {});
  EXPECT_THROW(op.reference_kernel({Ones({1, 1, 3, 3}), Ones({1, 1, 2, 2})}, attrs, F32Type({1, 1, 3, 3})), Error);
  EXPECT_THROW(op.reference_kernel({Ones({1, 2, 3, 3}), Ones({1, 1, 2, 2})}, attrs, F32Type({1, 1, 2, 2})), Error);
}

TEST(NNConv2DTransposeTest, HandComputedSingleChannel) {
  // Each input value scatters a 2x2 block of ones.
  Tensor data = F32({1, 2, 3, 4}, {1, 1, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.conv2d_transpose", {data, Ones({1, 1, 2, 2})}), {1, 1, 3, 3},
                   {1, 3, 2, 4, 10, 6, 3, 7, 4});
  // Padding 1 on every side crops the 3x3 result to its centre.
  ExpectTensorNear(
      EvaluateOp("nn.conv2d_transpose", {data, Ones({1, 1, 2, 2})}, {{"padding", std::vector<int64_t>{1, 1, 1, 1}}}),
      {1, 1, 1, 1}, {10});
}

TEST(NNConv2DTransposeTest, StrideTwoWithOutputPadding) {
  // (2 - 1) * 2 + 2 + 1 = 5: disjoint 2x2 blocks value * [[1,2],[3,4]], plus an extra zero row and column.
  Tensor out = EvaluateOp("nn.conv2d_transpose", {F32({1, 2, 3, 4}, {1, 1, 2, 2}), F32({1, 2, 3, 4}, {1, 1, 2, 2})},
                          {{"strides", std::vector<int64_t>{2, 2}}, {"output_padding", std::vector<int64_t>{1, 1}}});
  ExpectTensorNear(out, {1, 1, 5, 5}, {1, 2,  2,  4,  0,  //
                                       3, 4,  6,  8,  0,  //
                                       3, 6,  4,  8,  0,  //
                                       9, 12, 12, 16, 0,  //
                                       0, 0,  0,  0,  0});
}

TEST(NNConv2DTransposeTest, Groups) {
  Tensor data = F32({2, 3}, {1, 2, 1, 1});
  Tensor weight = F32({10, 100}, {2, 1, 1, 1});
  // Two groups: each input channel feeds its own output channel.
  ExpectTensorNear(EvaluateOp("nn.conv2d_transpose", {data, weight}, {{"groups", int64_t{2}}}), {1, 2, 1, 1},
                   {20, 300});
  // One group: both input channels feed the single output channel.
  ExpectTensorNear(EvaluateOp("nn.conv2d_transpose", {data, weight}), {1, 1, 1, 1}, {320});
}

double Dot(const Tensor& a, const Tensor& b) {
  double sum = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) sum += a.GetAsDouble(i) * b.GetAsDouble(i);
  return sum;
}

TEST(NNConv2DTransposeTest, IsTheAdjointOfConv2D) {
  // <conv2d(x, w), y> == <x, conv2d_transpose(y, w)> for the same weight and window; the
  // output padding restores the data height 9 and width 8 that the strided conv rounded away.
  Tensor x = Tensor::Random(DType::kF32, {2, 4, 9, 8}, 3);
  Tensor w = Tensor::Random(DType::kF32, {6, 2, 3, 2}, 4);
  Attrs window = {{"strides", std::vector<int64_t>{2, 3}},
                  {"padding", std::vector<int64_t>{1, 0, 2, 1}},
                  {"dilation", std::vector<int64_t>{2, 1}},
                  {"groups", int64_t{2}}};
  Tensor conv = EvaluateOp("nn.conv2d", {x, w}, window);
  ASSERT_EQ(conv.shape(), (Shape{2, 6, 4, 3}));  // (9 + 3 - 5) / 2 + 1, (8 + 1 - 2) / 3 + 1
  Tensor y = Tensor::Random(DType::kF32, conv.shape(), 5);
  Attrs transpose_attrs = window;
  // Height (4 - 1) * 2 - 3 + 2 * 2 + 1 + 1 = 9, width (3 - 1) * 3 - 1 + 1 + 1 + 1 = 8.
  transpose_attrs.Set("output_padding", std::vector<int64_t>{1, 1});
  Tensor back = EvaluateOp("nn.conv2d_transpose", {y, w}, transpose_attrs);
  ASSERT_EQ(back.shape(), x.shape());
  EXPECT_NEAR(Dot(conv, y), Dot(x, back), 1e-5 * std::fabs(Dot(x, back)));
}

TEST(NNConv2DTransposeTest, ShapeErrorsNameTheDimension) {
  std::string message = InferTypeError("nn.conv2d_transpose", {F32Type({1, 3, 4, 4}), F32Type({2, 1, 3, 3})});
  EXPECT_EQ(message,
            "nn.conv2d_transpose: data channels (dimension 1) 3 must equal weight input channels "
            "(dimension 0) 2");
  message = InferTypeError("nn.conv2d_transpose", {F32Type({1, 1, 4, 4}), F32Type({1, 1, 3, 3})},
                           {{"strides", std::vector<int64_t>{2, 2}}, {"output_padding", std::vector<int64_t>{0, 2}}});
  EXPECT_NE(message.find("output_padding[1] 2 must be smaller than the width stride 2"), std::string::npos) << message;
  message = InferTypeError("nn.conv2d_transpose", {F32Type({1, 1, 1, 4}), F32Type({1, 1, 1, 3})},
                           {{"padding", std::vector<int64_t>{1, 0, 0, 0}}});
  EXPECT_NE(message.find("nn.conv2d_transpose: output height would be 0"), std::string::npos) << message;
}

}  // namespace
}  // namespace collage
