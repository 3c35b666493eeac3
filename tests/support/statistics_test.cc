// Order statistics of timing samples.
#include "support/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace collage {
namespace {

TEST(StatisticsTest, QuantilesInterpolateBetweenSortedSamples) {
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2, 5}, 0.5), 3);
  EXPECT_DOUBLE_EQ(Quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_TRUE(std::isnan(Quantile({}, 0.5)));
}

// 1..5: median 3, quartiles 2 and 4, so sigma = 2 / 1.349 and the median's standard error is
// 1.2533 sigma / sqrt(5); one wild sample beyond the quartiles changes nothing.
TEST(StatisticsTest, TheMediansRelativeErrorComesFromTheInterquartileRange) {
  const double expected = 1.2533 * (2 / 1.349) / std::sqrt(5.0) / 3;
  EXPECT_NEAR(RelativeStandardErrorOfMedian({1, 2, 3, 4, 5}), expected, 1e-12 * expected);
  EXPECT_NEAR(RelativeStandardErrorOfMedian({1, 2, 3, 4, 100}), expected, 1e-12 * expected);
  EXPECT_LT(RelativeStandardErrorOfMedian({1, 1, 1, 1, 1}), 1e-12);
  EXPECT_TRUE(std::isinf(RelativeStandardErrorOfMedian({1})));
  EXPECT_TRUE(std::isinf(RelativeStandardErrorOfMedian({0, 0, 0})));
}

}  // namespace
}  // namespace collage
