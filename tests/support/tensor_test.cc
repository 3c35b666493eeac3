#include "support/tensor.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

TEST(DTypeTest, NamesRoundTrip) {
  for (DType dtype : {DType::kF32, DType::kF16, DType::kBF16, DType::kI8, DType::kU8, DType::kI32, DType::kI64,
                      DType::kBool}) {
    EXPECT_EQ(ParseDType(DTypeName(dtype)), dtype);
  }
  EXPECT_FALSE(ParseDType("float32").has_value());
  EXPECT_EQ(DTypeSize(DType::kI64), 8u);
  EXPECT_EQ(DTypeSize(DType::kBF16), 2u);
}

TEST(DTypeTest, HalfConversionsRoundTripRepresentableValues) {
  for (float value : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f, 5.9604645e-08f}) {
    EXPECT_EQ(HalfToFloat(FloatToHalf(value)), value) << value;
  }
  EXPECT_EQ(HalfToFloat(FloatToHalf(1e6f)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(HalfToFloat(FloatToHalf(1.0f + 1.0f / 4096.0f)), 1.0f);  // rounds to nearest even
  EXPECT_EQ(BFloat16ToFloat(FloatToBFloat16(3.0f)), 3.0f);
  EXPECT_EQ(BFloat16ToFloat(FloatToBFloat16(1.00390625f)), 1.0f);  // tie rounds to even
}

TEST(TensorTest, ZerosAreAlignedAndZero) {
  Tensor tensor = Tensor::Zeros(DType::kF32, {3, 5});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.raw_data()) % Tensor::kAlignment, 0u);
  EXPECT_EQ(tensor.NumElements(), 15);
  EXPECT_EQ(tensor.NumBytes(), 60u);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(tensor.data<float>()[i], 0.0f);
}

TEST(TensorTest, ShapesLargerThan64BitsAreTypeErrorsNotShortBuffers) {
  EXPECT_THROW(Tensor::Zeros(DType::kF32, {int64_t{1} << 31, int64_t{1} << 31, 2}), TypeError);
  EXPECT_THROW(Tensor::Random(DType::kF32, {int64_t{1} << 32, int64_t{1} << 32}, 0), TypeError);
  EXPECT_THROW(Tensor::Zeros(DType::kI64, {int64_t{1} << 61}), TypeError);
  EXPECT_EQ(Tensor::Zeros(DType::kF32, {int64_t{1} << 40, int64_t{1} << 40, 0}).NumElements(), 0);
  EXPECT_THROW(NumElements({int64_t{1} << 40, int64_t{1} << 40}), TypeError);
  EXPECT_EQ(NumElements({int64_t{1} << 31, int64_t{1} << 31}), int64_t{1} << 62);
  EXPECT_THROW(CheckedNumBytes({int64_t{1} << 31, int64_t{1} << 31}, 2), TypeError);
  EXPECT_EQ(CheckedNumBytes({3, 5}, 4), 60);
}

TEST(TensorTest, CopiesAliasClonesDoNot) {
  Tensor tensor = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  Tensor alias = tensor;
  Tensor clone = tensor.Clone();
  tensor.data<float>()[0] = 9;
  EXPECT_EQ(alias.data<float>()[0], 9);
  EXPECT_EQ(clone.data<float>()[0], 1);
  EXPECT_FALSE(clone.BitwiseEqual(tensor));
  EXPECT_TRUE(alias.BitwiseEqual(tensor));
}

TEST(TensorTest, TypedAccessChecksDType) {
  Tensor tensor = Tensor::Zeros(DType::kI64, {2});
  EXPECT_THROW(tensor.data<float>(), Error);
  EXPECT_NO_THROW(tensor.data<int64_t>());
}

TEST(TensorTest, RandomIsDeterministicAndInRange) {
  Tensor a = Tensor::Random(DType::kF32, {100}, 7, -2.0, 3.0);
  Tensor b = Tensor::Random(DType::kF32, {100}, 7, -2.0, 3.0);
  Tensor c = Tensor::Random(DType::kF32, {100}, 8, -2.0, 3.0);
  EXPECT_TRUE(a.BitwiseEqual(b));
  EXPECT_FALSE(a.BitwiseEqual(c));
  for (int i = 0; i < 100; ++i) {
    EXPECT_GE(a.data<float>()[i], -2.0f);
    EXPECT_LT(a.data<float>()[i], 3.0f);
  }
}

TEST(TensorTest, ConversionsThroughDouble) {
  Tensor half = Tensor::Zeros(DType::kF16, {2});
  half.SetFromDouble(1, 0.5);
  EXPECT_EQ(half.GetAsDouble(1), 0.5);
  Tensor flags = Tensor::Zeros(DType::kBool, {1});
  flags.SetFromDouble(0, -3.0);
  EXPECT_EQ(flags.GetAsInt64(0), 1);
}

TEST(TensorTest, ReshapedSharesBufferAndChecksCount) {
  Tensor tensor = Tensor::FromVector<int64_t>({1, 2, 3, 4, 5, 6}, {6});
  Tensor view = tensor.Reshaped({2, 3});
  EXPECT_EQ(view.raw_data(), tensor.raw_data());
  EXPECT_THROW(tensor.Reshaped({4}), Error);
}

}  // namespace
}  // namespace collage
