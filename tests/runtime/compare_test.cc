#include "runtime/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace collage {
namespace {

Value F32(const std::vector<float>& values) {
  return Tensor::FromVector<float>(values, {static_cast<int64_t>(values.size())});
}

TEST(CompareTest, IdenticalValuesHaveZeroError) {
  const Comparison comparison = CompareValues(F32({1.0f, -2.0f, 0.0f}), F32({1.0f, -2.0f, 0.0f}));
  EXPECT_TRUE(comparison.ok());
  EXPECT_EQ(comparison.max_abs_error, 0.0);
  EXPECT_EQ(comparison.max_scaled_error, 0.0);
  EXPECT_TRUE(comparison.first_mismatch.empty());
}

TEST(CompareTest, ReportsTheErrorAgainstEachTensorsMagnitude) {
  // Tensor 0: error 0.5 against max |expected| 4 (0.125); tensor 1: error 0.01 against 0.02 (0.5).
  const Value expected = Value::MakeTuple({F32({2.0f, 4.0f, 0.0f}), F32({0.02f})});
  const Value actual = Value::MakeTuple({F32({2.5f, 4.25f, 0.125f}), F32({0.03f})});
  const Comparison comparison = CompareValues(actual, expected, Tolerance{1.0});
  EXPECT_TRUE(comparison.ok());
  EXPECT_DOUBLE_EQ(comparison.max_abs_error, 0.5);
  EXPECT_NEAR(comparison.max_scaled_error, 0.5, 1e-6);
}

TEST(CompareTest, BoundIsRelativeToTheLargestExpectedValue) {
  // Bound 0.05 * 10 = 0.5: the error 0.5 on the small element 1 passes, 0.6 on element 0 fails.
  const Comparison comparison = CompareValues(F32({10.6f, 1.5f}), F32({10.0f, 1.0f}), Tolerance{0.05});
  EXPECT_EQ(comparison.mismatches, 1);
  EXPECT_EQ(comparison.first_mismatch,
            "tensor 0, element 0 at [0]: got 10.6000004, expected 10 (bound 0.05 * max |expected| 10)");
}

TEST(CompareTest, DefaultFloatToleranceAcceptsRoundingButNotRealDifferences) {
  EXPECT_TRUE(CompareValues(F32({1.00001f}), F32({1.0f})).ok());
  EXPECT_FALSE(CompareValues(F32({1.001f}), F32({1.0f})).ok());
}

TEST(CompareTest, TinyOutputsAreJudgedAtTheirOwnScale) {
  // An output of values near 1e-9 (a degenerate model's): zeros and a 1 % error are caught,
  // the same rounding error as at scale 1 is not.
  EXPECT_FALSE(CompareValues(F32({0.0f, 0.0f}), F32({3e-9f, -1e-9f})).ok());
  EXPECT_FALSE(CompareValues(F32({3.03e-9f, -1e-9f}), F32({3e-9f, -1e-9f})).ok());
  EXPECT_TRUE(CompareValues(F32({3.00003e-9f, -1e-9f}), F32({3e-9f, -1e-9f})).ok());
}

TEST(CompareTest, AllZeroExpectedAcceptsOnlyZerosAndFlushedSubnormals) {
  const float subnormal = std::numeric_limits<float>::denorm_min() * 4;
  EXPECT_TRUE(CompareValues(F32({0.0f, subnormal}), F32({0.0f, 0.0f})).ok());
  EXPECT_TRUE(CompareValues(F32({0.0f, 0.0f}), F32({0.0f, subnormal})).ok());
  const Comparison comparison = CompareValues(F32({0.0f, 1e-30f}), F32({0.0f, 0.0f}));
  EXPECT_FALSE(comparison.ok());
  EXPECT_TRUE(std::isinf(comparison.max_scaled_error));
}

TEST(CompareTest, FloorIsFarBelowEveryRelativeBound) {
  for (DType dtype : {DType::kF32, DType::kF16, DType::kBF16}) {
    EXPECT_LE(AbsoluteFloor(dtype), 1e-30) << DTypeName(dtype);
    EXPECT_GT(DefaultTolerance(dtype).relative, 0.0) << DTypeName(dtype);
  }
  EXPECT_EQ(AbsoluteFloor(DType::kI32), 0.0);
}

TEST(CompareTest, NanMatchesOnlyNanAndInfinityOnlyItself) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(CompareValues(F32({nan, inf, -inf}), F32({nan, inf, -inf})).ok());
  const Comparison nan_vs_number = CompareValues(F32({nan}), F32({1.0f}));
  EXPECT_EQ(nan_vs_number.mismatches, 1);
  EXPECT_TRUE(std::isinf(nan_vs_number.max_abs_error));
  EXPECT_FALSE(CompareValues(F32({inf}), F32({-inf})).ok());
  EXPECT_FALSE(CompareValues(F32({1e30f}), F32({inf})).ok());
}

TEST(CompareTest, IntegersCompareExactlyEvenBeyondDoublePrecision) {
  const int64_t big = int64_t{1} << 60;
  const Value expected = Tensor::FromVector<int64_t>({big, 5}, {2});
  EXPECT_TRUE(CompareValues(Tensor::FromVector<int64_t>({big, 5}, {2}), expected).ok());
  const Comparison off_by_one = CompareValues(Tensor::FromVector<int64_t>({big + 1, 5}, {2}), expected);
  EXPECT_EQ(off_by_one.mismatches, 1);
  EXPECT_EQ(off_by_one.max_abs_error, 1.0);
  EXPECT_FALSE(CompareValues(Tensor::FromVector<bool>({true}, {1}), Tensor::FromVector<bool>({false}, {1})).ok());
}

TEST(CompareTest, MismatchNamesTheTensorAndMultiIndex) {
  const Value expected = Value::MakeTuple({F32({0.0f}), Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3})});
  const Value actual = Value::MakeTuple({F32({0.0f}), Tensor::FromVector<int32_t>({1, 2, 3, 4, 9, 6}, {2, 3})});
  const Comparison comparison = CompareValues(actual, expected);
  EXPECT_EQ(comparison.mismatches, 1);
  EXPECT_EQ(comparison.max_abs_error, 4.0);
  EXPECT_EQ(comparison.first_mismatch,
            "tensor 1, element 4 at [1, 1]: got 9, expected 5 (bound 0 * max |expected| 6)");
}

TEST(CompareTest, DifferentStructureDTypeOrShapeIsAnError) {
  EXPECT_THROW(CompareValues(F32({1.0f}), Value::MakeTuple({F32({1.0f})})), Error);
  EXPECT_THROW(CompareValues(Value::MakeTuple({F32({1.0f})}), Value::MakeTuple({F32({1.0f}), F32({1.0f})})), Error);
  EXPECT_THROW(CompareValues(F32({1.0f, 2.0f}), F32({1.0f})), Error);
  EXPECT_THROW(CompareValues(Tensor::FromVector<int32_t>({1}, {1}), F32({1.0f})), Error);
}

}  // namespace
}  // namespace collage
