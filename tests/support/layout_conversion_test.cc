#include "support/layout_conversion.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

// The logical element (n, c, h, w) of a rank-4 buffer in `layout`, by its definition.
double ElementAt(const Tensor& buffer, Layout layout, const Shape& logical, int64_t n, int64_t c, int64_t h,
                 int64_t w) {
  const int64_t channels = logical[1], height = logical[2], width = logical[3];
  const int64_t index = layout == Layout::kPlain ? ((n * channels + c) * height + h) * width + w
                                                 : ((n * height + h) * width + w) * channels + c;
  return buffer.GetAsDouble(index);
}

// Whether `converted` (in `to`) holds the same logical elements as `source` (in `from`).
bool SameElements(const Tensor& source, Layout from, const Tensor& converted, Layout to, const Shape& logical) {
  for (int64_t n = 0; n < logical[0]; ++n)
    for (int64_t c = 0; c < logical[1]; ++c)
      for (int64_t h = 0; h < logical[2]; ++h)
        for (int64_t w = 0; w < logical[3]; ++w) {
          if (ElementAt(source, from, logical, n, c, h, w) != ElementAt(converted, to, logical, n, c, h, w)) return false;
        }
  return true;
}

TEST(LayoutConversionTest, EveryPairMatchesTheDefinitionForEveryElementSize) {
  const std::vector<Shape> shapes = {{2, 3, 4, 5}, {1, 17, 19, 23}, {1, 1, 3, 3}, {1, 5, 1, 1}, {3, 2, 0, 4}};
  const std::vector<DType> dtypes = {DType::kF32, DType::kI64, DType::kU8, DType::kF16};
  const std::vector<Layout> layouts = {Layout::kPlain, Layout::kChannelsLast};
  size_t checked = 0;
  for (const Shape& logical : shapes) {
    for (DType dtype : dtypes) {
      for (Layout from : layouts) {
        for (Layout to : layouts) {
          const Tensor source = Tensor::Random(dtype, PhysicalShape(logical, from), 11, 0, 100);
          Tensor target = Tensor::Zeros(dtype, PhysicalShape(logical, to));
          ConvertLayout(source, from, target, to, logical);
          EXPECT_TRUE(SameElements(source, from, target, to, logical))
              << ShapeToString(logical) << " " << DTypeName(dtype) << " " << LayoutName(from) << "->" << LayoutName(to);
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, shapes.size() * dtypes.size() * 4);
}

// Negative control: the definition check notices an unconverted buffer.
TEST(LayoutConversionTest, TheCheckNoticesAMissingConversion) {
  const Shape logical = {1, 3, 2, 2};
  const Tensor source = Tensor::Random(DType::kF32, logical, 5);
  const Tensor not_converted = source.Reshaped(PhysicalShape(logical, Layout::kChannelsLast));
  EXPECT_FALSE(SameElements(source, Layout::kPlain, not_converted, Layout::kChannelsLast, logical));
}

TEST(LayoutConversionTest, OnlyRankFourTensorsWithSeveralChannelsAndPixelsChangeBytes) {
  EXPECT_EQ(PhysicalShape({2, 3, 4, 5}, Layout::kChannelsLast), (Shape{2, 4, 5, 3}));
  EXPECT_EQ(PhysicalShape({2, 3, 4}, Layout::kChannelsLast), (Shape{2, 3, 4}));
  EXPECT_EQ(LogicalShape({2, 4, 5, 3}, Layout::kChannelsLast), (Shape{2, 3, 4, 5}));
  EXPECT_EQ(LogicalShape({2, 4, 5, 3}, Layout::kPlain), (Shape{2, 4, 5, 3}));
  EXPECT_FALSE(LayoutsShareBytes({2, 3, 4, 5}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_TRUE(LayoutsShareBytes({2, 1, 4, 5}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_TRUE(LayoutsShareBytes({2, 3, 1, 1}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_TRUE(LayoutsShareBytes({6, 4}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_EQ(ParseLayout("nhwc"), Layout::kChannelsLast);
  EXPECT_EQ(ParseLayout("plain"), Layout::kPlain);
  EXPECT_EQ(ParseLayout("NHWC"), std::nullopt);
  EXPECT_EQ(FormatName({Layout::kChannelsLast, DType::kF32}), "nhwc/f32");
}

TEST(LayoutConversionTest, ConvertedLayoutSharesTheBufferOnlyWhereTheBytesAgree) {
  const Tensor pooled = Tensor::Random(DType::kF32, {2, 3, 1, 1}, 4);
  const Tensor shared = ConvertedLayout(pooled, Layout::kPlain, Layout::kChannelsLast, {2, 3, 1, 1});
  EXPECT_EQ(shared.raw_data(), pooled.raw_data());
  EXPECT_EQ(shared.shape(), (Shape{2, 1, 1, 3}));
  const Shape logical = {1, 3, 2, 2};
  const Tensor image = Tensor::Random(DType::kF32, logical, 4);
  const Tensor converted = ConvertedLayout(image, Layout::kPlain, Layout::kChannelsLast, logical);
  EXPECT_NE(converted.raw_data(), image.raw_data());
  EXPECT_TRUE(SameElements(image, Layout::kPlain, converted, Layout::kChannelsLast, logical));
}

TEST(LayoutConversionTest, MismatchedBuffersAreRefused) {
  const Tensor source = Tensor::Zeros(DType::kF32, {1, 3, 2, 2});
  Tensor wrong_shape = Tensor::Zeros(DType::kF32, {1, 3, 2, 2});
  EXPECT_THROW(ConvertLayout(source, Layout::kPlain, wrong_shape, Layout::kChannelsLast, {1, 3, 2, 2}), Error);
  Tensor wrong_dtype = Tensor::Zeros(DType::kI32, {1, 2, 2, 3});
  EXPECT_THROW(ConvertLayout(source, Layout::kPlain, wrong_dtype, Layout::kChannelsLast, {1, 3, 2, 2}), Error);
}

}  // namespace
}  // namespace collage
