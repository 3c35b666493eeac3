#include "support/layout_conversion.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

// Where the logical element (n, c, h, w) of a rank-4 tensor lies in a buffer in `layout`, by
// the layouts' definitions.
int64_t IndexOf(Layout layout, const Shape& logical, int64_t n, int64_t c, int64_t h, int64_t w) {
  const int64_t channels = logical[1], height = logical[2], width = logical[3];
  switch (layout) {
    case Layout::kPlain:
      return ((n * channels + c) * height + h) * width + w;
    case Layout::kChannelsLast:
      return ((n * height + h) * width + w) * channels + c;
    case Layout::kChannelBlocked8:
    case Layout::kChannelBlocked16: {
      const int64_t block = layout == Layout::kChannelBlocked8 ? 8 : 16;
      const int64_t blocks = (channels + block - 1) / block;
      return (((n * blocks + c / block) * height + h) * width + w) * block + c % block;
    }
  }
  return -1;
}

double ElementAt(const Tensor& buffer, Layout layout, const Shape& logical, int64_t n, int64_t c, int64_t h,
                 int64_t w) {
  return buffer.GetAsDouble(IndexOf(layout, logical, n, c, h, w));
}

// Whether every element of a buffer in `layout` that holds no logical element is zero.
bool PaddingIsZero(const Tensor& buffer, Layout layout, const Shape& logical) {
  std::vector<bool> holds(static_cast<size_t>(NumElements(buffer.shape())), false);
  for (int64_t n = 0; n < logical[0]; ++n)
    for (int64_t c = 0; c < logical[1]; ++c)
      for (int64_t h = 0; h < logical[2]; ++h)
        for (int64_t w = 0; w < logical[3]; ++w) holds[static_cast<size_t>(IndexOf(layout, logical, n, c, h, w))] = true;
  for (size_t i = 0; i < holds.size(); ++i) {
    if (!holds[i] && buffer.GetAsDouble(static_cast<int64_t>(i)) != 0) return false;
  }
  return true;
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
  const std::vector<Shape> shapes = {{2, 3, 4, 5},  {1, 17, 19, 23}, {1, 1, 3, 3}, {1, 5, 1, 1},
                                     {3, 2, 0, 4},  {2, 16, 3, 2},   {2, 8, 3, 3}, {1, 32, 1, 1},
                                     {2, 24, 2, 3}, {1, 40, 7, 1},  {1, 37, 9, 7}, {2, 70, 5, 13}};
  const std::vector<DType> dtypes = {DType::kF32, DType::kI64, DType::kU8, DType::kF16};
  size_t checked = 0;
  for (const Shape& logical : shapes) {
    for (DType dtype : dtypes) {
      for (Layout from : AllLayouts()) {
        for (Layout to : AllLayouts()) {
          // A source with nonzero garbage in its padding: the conversion must not carry it over.
          Tensor source = Tensor::Random(dtype, PhysicalShape(logical, from), 11, 1, 100);
          Tensor target = Tensor::Random(dtype, PhysicalShape(logical, to), 12, 1, 100);
          ConvertLayout(source, from, target, to, logical);
          EXPECT_TRUE(SameElements(source, from, target, to, logical))
              << ShapeToString(logical) << " " << DTypeName(dtype) << " " << LayoutName(from) << "->" << LayoutName(to);
          if (!LayoutsShareBytes(logical, from, to)) {
            EXPECT_TRUE(PaddingIsZero(target, to, logical))
                << ShapeToString(logical) << " " << LayoutName(from) << "->" << LayoutName(to);
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, shapes.size() * dtypes.size() * AllLayouts().size() * AllLayouts().size());
}

// LayoutsShareBytes against the definitions: two layouts share bytes exactly when their
// buffers are equally large and put every logical element at the same index.
TEST(LayoutConversionTest, SharedBytesAgreeWithTheDefinitions) {
  size_t shared = 0, distinct = 0;
  for (int64_t channels : {1, 3, 8, 16, 24, 32}) {
    for (const auto& [height, width] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {2, 3}, {1, 4}}) {
      for (int64_t images : {1, 2}) {
        const Shape logical = {images, channels, height, width};
        for (Layout first : AllLayouts()) {
          for (Layout second : AllLayouts()) {
            bool same = NumElements(PhysicalShape(logical, first)) == NumElements(PhysicalShape(logical, second));
            for (int64_t n = 0; same && n < images; ++n)
              for (int64_t c = 0; same && c < channels; ++c)
                for (int64_t h = 0; same && h < height; ++h)
                  for (int64_t w = 0; same && w < width; ++w) {
                    same = IndexOf(first, logical, n, c, h, w) == IndexOf(second, logical, n, c, h, w);
                  }
            EXPECT_EQ(LayoutsShareBytes(logical, first, second), same)
                << ShapeToString(logical) << " " << LayoutName(first) << " " << LayoutName(second);
            ++(same ? shared : distinct);
          }
        }
      }
    }
  }
  EXPECT_GT(shared, 0u);
  EXPECT_GT(distinct, 0u);
}

// Negative controls: the definition checks notice an unconverted buffer and nonzero padding.
TEST(LayoutConversionTest, TheCheckNoticesAMissingConversion) {
  const Shape logical = {1, 3, 2, 2};
  const Tensor source = Tensor::Random(DType::kF32, logical, 5);
  const Tensor not_converted = source.Reshaped(PhysicalShape(logical, Layout::kChannelsLast));
  EXPECT_FALSE(SameElements(source, Layout::kPlain, not_converted, Layout::kChannelsLast, logical));
  Tensor blocked = Tensor::Zeros(DType::kF32, PhysicalShape(logical, Layout::kChannelBlocked8));
  ConvertLayout(source, Layout::kPlain, blocked, Layout::kChannelBlocked8, logical);
  EXPECT_TRUE(PaddingIsZero(blocked, Layout::kChannelBlocked8, logical));
  blocked.data<float>()[7] = 1;  // channel 7 of the first pixel: padding
  EXPECT_FALSE(PaddingIsZero(blocked, Layout::kChannelBlocked8, logical));
}

TEST(LayoutConversionTest, OnlyRankFourTensorsChangeShape) {
  EXPECT_EQ(PhysicalShape({2, 3, 4, 5}, Layout::kChannelsLast), (Shape{2, 4, 5, 3}));
  EXPECT_EQ(PhysicalShape({2, 3, 4}, Layout::kChannelsLast), (Shape{2, 3, 4}));
  EXPECT_EQ(PhysicalShape({2, 19, 4, 5}, Layout::kChannelBlocked8), (Shape{2, 3, 4, 5, 8}));
  EXPECT_EQ(PhysicalShape({2, 19, 4, 5}, Layout::kChannelBlocked16), (Shape{2, 2, 4, 5, 16}));
  EXPECT_EQ(PhysicalShape({2, 19, 4}, Layout::kChannelBlocked8), (Shape{2, 19, 4}));
  EXPECT_FALSE(LayoutsShareBytes({2, 3, 4, 5}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_TRUE(LayoutsShareBytes({2, 1, 4, 5}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_TRUE(LayoutsShareBytes({2, 3, 1, 1}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_TRUE(LayoutsShareBytes({6, 4}, Layout::kPlain, Layout::kChannelsLast));
  EXPECT_EQ(ParseLayout("nhwc"), Layout::kChannelsLast);
  EXPECT_EQ(ParseLayout("plain"), Layout::kPlain);
  EXPECT_EQ(ParseLayout("NHWC"), std::nullopt);
  EXPECT_EQ(ParseLayout("nchw8c"), Layout::kChannelBlocked8);
  EXPECT_EQ(ParseLayout("nchw16c"), Layout::kChannelBlocked16);
  EXPECT_EQ(LayoutNames(), "plain, nhwc, nchw8c, nchw16c");
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
