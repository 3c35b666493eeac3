#include "support/quantization.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

TEST(QuantizationTest, NonNegativeRangesAreU8AndSignedOnesSymmetricS8) {
  EXPECT_EQ(ActivationQuantization({0.0f, 2.55f}), (QuantizationParameters{DType::kU8, 2.55f / 255, 0}));
  EXPECT_EQ(ActivationQuantization({-1.0f, 2.54f}), (QuantizationParameters{DType::kI8, 2.54f / 127, 0}));
  EXPECT_EQ(ActivationQuantization({-3.81f, 1.0f}), (QuantizationParameters{DType::kI8, 3.81f / 127, 0}));
  EXPECT_EQ(ActivationQuantization({0.0f, 0.0f}), (QuantizationParameters{DType::kU8, 1.0f, 0}));
}

TEST(QuantizationTest, ValuesRoundHalfToEvenAndSaturate) {
  const QuantizationParameters u8{DType::kU8, 0.5f, 0};
  EXPECT_EQ(QuantizeValue(1.25f, u8), 2);  // 2.5 -> 2
  EXPECT_EQ(QuantizeValue(1.75f, u8), 4);  // 3.5 -> 4
  EXPECT_EQ(QuantizeValue(-3.0f, u8), 0);
  EXPECT_EQ(QuantizeValue(1000.0f, u8), 255);
  const QuantizationParameters s8{DType::kI8, 0.5f, 0};
  EXPECT_EQ(QuantizeValue(-1000.0f, s8), -128);
  EXPECT_EQ(QuantizeValue(1000.0f, s8), 127);
  EXPECT_EQ(QuantizeValue(-1.25f, s8), -2);
  EXPECT_EQ(Dequantize(-2, s8), -1.0f);
  const QuantizationParameters shifted{DType::kU8, 0.5f, 10};
  EXPECT_EQ(QuantizeValue(1.0f, shifted), 12);
  EXPECT_EQ(Dequantize(12, shifted), 1.0f);
}

TEST(QuantizationTest, WeightScalesArePerOutputChannel) {
  const Tensor weights = Tensor::FromVector<float>({1.27f, -0.5f, 0.0f, 0.0f, -2.54f, 1.0f}, {3, 2});
  const std::vector<float> scales = PerChannelWeightScales(weights);
  ASSERT_EQ(scales.size(), 3u);
  EXPECT_EQ(scales[0], 1.27f / 127);
  EXPECT_EQ(scales[1], 1.0f);
  EXPECT_EQ(scales[2], 2.54f / 127);
  const Tensor quantized = QuantizeWeights(weights, scales);
  const int8_t* q = quantized.data<int8_t>();
  EXPECT_EQ(std::vector<int>(q, q + 6), (std::vector<int>{127, -50, 0, 0, -127, 50}));
}

TEST(QuantizationTest, RangesTakeExtremesOrPercentiles) {
  std::vector<float> values;
  for (int i = 0; i <= 100; ++i) values.push_back(static_cast<float>(i));
  values.push_back(1e6f);
  EXPECT_EQ(RangeOf(values), (ActivationRange{0.0f, 1e6f}));
  const ActivationRange clipped = RangeOf(values, 99);
  EXPECT_GT(clipped.max, 99.0f);
  EXPECT_LT(clipped.max, 1e6f);
  EXPECT_FLOAT_EQ(clipped.min, 1.01f);
  EXPECT_EQ(RangeOf({}), (ActivationRange{}));
  EXPECT_EQ(Widen({-1, 2}, {0, 3}), (ActivationRange{-1, 3}));
}

}  // namespace
}  // namespace collage
