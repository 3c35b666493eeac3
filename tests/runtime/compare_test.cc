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
  EXPECT_EQ(comparison.max_rel_error, 0.0);
  EXPECT_TRUE(comparison.first_mismatch.empty());
}

TEST(CompareTest, ReportsMaxAbsoluteAndRelativeErrors) {
  // Errors: 0.5 (relative 0.25 of 2), 0.25 (relative 0.0625 of 4); expected 0 is skipped for relative.
  const Comparison comparison = CompareValues(F32({2.5f, 4.25f, 0.125f}), F32({2.0f, 4.0f, 0.0f}), Tolerance{1.0, 0.0});
  EXPECT_TRUE(comparison.ok());
  EXPECT_DOUBLE_EQ(comparison.max_abs_error, 0.5);
  EXPECT_DOUBLE_EQ(comparison.max_rel_error, 0.25);
}

TEST(CompareTest, ToleranceIsAbsolutePlusRelativeTimesExpected) {
  // |10.5 - 10| = 0.5 <= 0.1 + 0.05 * 10 = 0.6 passes; |1.5 - 1| = 0.5 > 0.1 + 0.05 fails.
  const Comparison comparison = CompareValues(F32({10.5f, 1.5f}), F32({10.0f, 1.0f}), Tolerance{0.1, 0.05});
  EXPECT_EQ(comparison.mismatches, 1);
  EXPECT_EQ(comparison.first_mismatch,
            "tensor 0, element 1 at [1]: got 1.5, expected 1 (tolerance 0.1 + 0.05 * |expected|)");
}

TEST(CompareTest, DefaultFloatToleranceAcceptsRoundingButNotRealDifferences) {
  EXPECT_TRUE(CompareValues(F32({1.00001f}), F32({1.0f})).ok());
  EXPECT_FALSE(CompareValues(F32({1.001f}), F32({1.0f})).ok());
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
            "tensor 1, element 4 at [1, 1]: got 9, expected 5 (tolerance 0 + 0 * |expected|)");
}

TEST(CompareTest, DifferentStructureDTypeOrShapeIsAnError) {
  EXPECT_THROW(CompareValues(F32({1.0f}), Value::MakeTuple({F32({1.0f})})), Error);
  EXPECT_THROW(CompareValues(Value::MakeTuple({F32({1.0f})}), Value::MakeTuple({F32({1.0f}), F32({1.0f})})), Error);
  EXPECT_THROW(CompareValues(F32({1.0f, 2.0f}), F32({1.0f})), Error);
  EXPECT_THROW(CompareValues(Tensor::FromVector<int32_t>({1}, {1}), F32({1.0f})), Error);
}

}  // namespace
}  // namespace collage
