#include "support/tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace collage {
namespace {

TEST(DTypeTest, NamesRoundTrip) {
  EXPECT_EQ(AllDTypes().size(), 13u);
  for (DType dtype : AllDTypes()) EXPECT_EQ(ParseDType(DTypeName(dtype)), dtype);
  EXPECT_FALSE(ParseDType("float32").has_value());
  EXPECT_EQ(DTypeSize(DType::kI64), 8u);
  EXPECT_EQ(DTypeSize(DType::kBF16), 2u);
  EXPECT_EQ(DTypeSize(DType::kF64), 8u);
  EXPECT_EQ(DTypeSize(DType::kU16), 2u);
  EXPECT_EQ(DTypeName(DType::kU64), "u64");
  EXPECT_TRUE(IsFloatingPoint(DType::kF64));
  for (DType dtype : {DType::kI16, DType::kU16, DType::kU32, DType::kU64}) EXPECT_TRUE(IsInteger(dtype));
}

TEST(DTypeTest, Int64RangesAreTheDTypesExceptU64) {
  EXPECT_EQ(Int64Range(DType::kU16), (std::pair<int64_t, int64_t>{0, 65535}));
  EXPECT_EQ(Int64Range(DType::kI16), (std::pair<int64_t, int64_t>{-32768, 32767}));
  EXPECT_EQ(Int64Range(DType::kU32), (std::pair<int64_t, int64_t>{0, 4294967295}));
  EXPECT_EQ(Int64Range(DType::kU64), (std::pair<int64_t, int64_t>{0, std::numeric_limits<int64_t>::max()}));
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

TEST(TensorTest, WideDTypesConvertWithoutNarrowing) {
  Tensor wide = Tensor::Zeros(DType::kF64, {1});
  wide.SetFromDouble(0, 1.0 + std::ldexp(1.0, -40));
  EXPECT_EQ(wide.GetAsDouble(0), 1.0 + std::ldexp(1.0, -40));
  Tensor unsigned_values = Tensor::Zeros(DType::kU32, {2});
  unsigned_values.SetFromDouble(0, 4294967295.0);
  unsigned_values.SetFromDouble(1, -1.0);  // wraps like the signed types narrow
  EXPECT_EQ(unsigned_values.GetAsInt64(0), 4294967295);
  EXPECT_EQ(unsigned_values.data<uint32_t>()[1], 4294967295u);
  Tensor large = Tensor::FromVector<uint64_t>({std::numeric_limits<uint64_t>::max(), 7}, {2});
  EXPECT_EQ(large.GetAsDouble(0), 18446744073709551615.0);
  EXPECT_EQ(large.GetAsInt64(1), 7);
  try {
    large.GetAsInt64(0);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("above 2^63 - 1"), std::string::npos) << error.what();
  }
}

TEST(TensorTest, ReshapedSharesBufferAndChecksCount) {
  Tensor tensor = Tensor::FromVector<int64_t>({1, 2, 3, 4, 5, 6}, {6});
  Tensor view = tensor.Reshaped({2, 3});
  EXPECT_EQ(view.raw_data(), tensor.raw_data());
  EXPECT_THROW(tensor.Reshaped({4}), Error);
}

}  // namespace
}  // namespace collage
