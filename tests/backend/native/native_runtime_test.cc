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

}  // namespace
