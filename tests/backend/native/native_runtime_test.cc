// The scalar helpers of the native runtime that replace libm calls, checked on the host.
#include "backend/native/runtime/native_runtime.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace {

TEST(NativeRuntimeTest, ErfIsWithinItsStatedErrorEverywhere) {
  double worst = 0;
  for (int step = -80000; step <= 80000; ++step) {
    const float x = static_cast<float>(step) * 1e-4f;  // [-8, 8]
    worst = std::max(worst, std::fabs(static_cast<double>(native::Erf(x)) - std::erf(static_cast<double>(x))));
  }
  EXPECT_LT(worst, 4e-7);
}

TEST(NativeRuntimeTest, ErfKeepsNaNInfinitiesAndSignedZero) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(native::Erf(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(native::Erf(kInfinity), 1.0f);
  EXPECT_EQ(native::Erf(-kInfinity), -1.0f);
  EXPECT_EQ(native::Erf(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(native::Erf(-0.0f)));
}

// Units in the last place of `expected` (as a float) that `actual` is away from it.
double UlpDistance(float actual, double expected) {
  const float rounded = static_cast<float>(expected);
  const double ulp = std::nextafter(rounded, std::numeric_limits<float>::infinity()) - rounded;
  return std::fabs(static_cast<double>(actual) - expected) / ulp;
}

TEST(NativeRuntimeTest, ExpIsWithinOneAndAHalfUlpOverTheNormalRange) {
  double worst = 0;
  for (int step = -873000; step <= 887000; ++step) {
    const float x = static_cast<float>(step) * 1e-4f;  // [-87.3, 88.7]
    worst = std::max(worst, UlpDistance(native::Exp(x), std::exp(static_cast<double>(x))));
  }
  EXPECT_LT(worst, 1.5);
}

TEST(NativeRuntimeTest, ExpOverflowsUnderflowsAndKeepsNaN) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(native::Exp(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(native::Exp(kInfinity), kInfinity);
  EXPECT_EQ(native::Exp(88.8f), kInfinity);
  EXPECT_EQ(native::Exp(-kInfinity), 0.0f);
  EXPECT_EQ(native::Exp(-105.0f), 0.0f);
  EXPECT_EQ(native::Exp(0.0f), 1.0f);
  EXPECT_NEAR(native::Exp(88.7f), std::exp(88.7f), 2e-7 * std::exp(88.7f));
  for (const float subnormal : {-90.0f, -95.5f, -100.0f, -103.0f}) {
    const double expected = std::exp(static_cast<double>(subnormal));
    EXPECT_LE(std::fabs(native::Exp(subnormal) - expected), std::numeric_limits<float>::denorm_min()) << subnormal;
  }
}

TEST(NativeRuntimeTest, SigmoidIsWithinItsStatedErrorEverywhere) {
  double worst = 0;
  for (int step = -870000; step <= 870000; ++step) {
    const float x = static_cast<float>(step) * 1e-4f;  // [-87, 87]
    const double expected = 1.0 / (1.0 + std::exp(-static_cast<double>(x)));
    worst = std::max(worst, std::fabs(static_cast<double>(native::Sigmoid(x)) - expected) / expected);
  }
  EXPECT_LT(worst, 2e-7);
}

TEST(NativeRuntimeTest, SigmoidSaturatesAndKeepsNaN) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(native::Sigmoid(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(native::Sigmoid(kInfinity), 1.0f);
  EXPECT_EQ(native::Sigmoid(-kInfinity), 0.0f);
  EXPECT_EQ(native::Sigmoid(-88.0f), 0.0f);
  EXPECT_EQ(native::Sigmoid(0.0f), 0.5f);
  EXPECT_EQ(native::Sigmoid(20.0f), 1.0f);
  EXPECT_NEAR(native::Sigmoid(-20.0f), 2.0611536e-9f, 2e-7 * 2.0611536e-9f);
}

TEST(NativeRuntimeTest, TanhIsWithinItsStatedErrorEverywhere) {
  double worst_absolute = 0;
  double worst_relative = 0;
  for (int step = -120000; step <= 120000; ++step) {
    const float x = static_cast<float>(step) * 1e-4f;  // [-12, 12]
    const double expected = std::tanh(static_cast<double>(x));
    const double error = std::fabs(static_cast<double>(native::Tanh(x)) - expected);
    worst_absolute = std::max(worst_absolute, error);
    if (expected != 0) worst_relative = std::max(worst_relative, error / std::fabs(expected));
  }
  EXPECT_LT(worst_absolute, 1e-7);
  EXPECT_LT(worst_relative, 4e-7);
}

TEST(NativeRuntimeTest, TanhKeepsNaNInfinitiesAndSignedZero) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(native::Tanh(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(native::Tanh(kInfinity), 1.0f);
  EXPECT_EQ(native::Tanh(-kInfinity), -1.0f);
  EXPECT_EQ(native::Tanh(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(native::Tanh(-0.0f)));
  EXPECT_EQ(native::Tanh(1e-30f), 1e-30f);
}

TEST(NativeRuntimeTest, PowerMatchesPowOnSquaresCubesAndOtherExponents) {
  for (const float base : {-3.5f, -1.0f, -0.0f, 0.0f, 0.25f, 2.0f, 1e20f, std::numeric_limits<float>::infinity()}) {
    for (const float exponent : {2.0f, 3.0f, 0.5f, -1.0f}) {
      const float expected = std::pow(base, exponent);
      const float actual = native::Power(base, exponent);
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(actual)) << base << "^" << exponent;
      } else if (std::isinf(expected)) {
        EXPECT_EQ(actual, expected) << base << "^" << exponent;
      } else {
        EXPECT_NEAR(actual, expected, 2e-7 * std::fabs(expected)) << base << "^" << exponent;
      }
    }
  }
}

// RowIndex's division and modulo agree with the plain linear index for divisors and moduli
// that are multiples of the row length, divide it, or neither.
TEST(NativeRuntimeTest, RowIndexDivisionAndModuloMatchTheLinearIndex) {
  constexpr int64_t kColumns = 24;
  for (int32_t row = 0; row < 50; ++row) {
    for (int32_t col = 0; col < kColumns; ++col) {
      const native::RowIndex<int32_t, kColumns> index{row, col};
      const int32_t linear = row * kColumns + col;
      ASSERT_EQ(static_cast<int32_t>(index), linear);
      for (int32_t d : {1, 2, 5, 7, 8, 12, 24, 36, 48, 72, 240}) {
        ASSERT_EQ(index / d, linear / d) << row << " " << col << " / " << d;
        ASSERT_EQ(index % d, linear % d) << row << " " << col << " % " << d;
      }
    }
  }
}

}  // namespace
