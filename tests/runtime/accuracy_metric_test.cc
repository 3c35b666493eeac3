#include "runtime/accuracy_metric.h"

#include <gtest/gtest.h>

#include <cmath>

namespace collage {
namespace {

Tensor Row(std::vector<float> values) {
  const int64_t count = static_cast<int64_t>(values.size());
  return Tensor::FromVector<float>(values, {1, count});
}

TEST(AccuracyMetricTest, RelativeL2AndMaxRelativeOfTheWorstOutput) {
  const std::vector<Tensor> expected = {Row({3, 4}), Row({1, 0})};
  const std::vector<Tensor> actual = {Row({3, 4.5f}), Row({1, 0.01f})};
  EXPECT_DOUBLE_EQ(MeasureError(AccuracyMetric::kRelativeL2, actual, expected), 0.1);
  EXPECT_DOUBLE_EQ(MeasureError(AccuracyMetric::kMaxRelative, actual, expected), 0.125);
  EXPECT_EQ(MeasureError(AccuracyMetric::kRelativeL2, expected, expected), 0);
}

TEST(AccuracyMetricTest, Top1CountsRowsWhoseArgmaxMoved) {
  const Tensor expected = Tensor::FromVector<float>({1, 2, 3, 3, 2, 1, 0, 5, 0, 1, 1, 2}, {4, 3});
  const Tensor actual = Tensor::FromVector<float>({1, 2, 3, 1, 2, 1, 0, 5, 0, 9, 1, 2}, {4, 3});
  EXPECT_DOUBLE_EQ(MeasureError(AccuracyMetric::kTop1, {actual}, {expected}), 0.5);
}

TEST(AccuracyMetricTest, NamesAndMismatches) {
  EXPECT_EQ(ParseAccuracyMetric("top1"), AccuracyMetric::kTop1);
  EXPECT_EQ(ParseAccuracyMetric("rel-l2"), AccuracyMetric::kRelativeL2);
  EXPECT_FALSE(ParseAccuracyMetric("l2"));
  EXPECT_THROW(MeasureError(AccuracyMetric::kRelativeL2, {Row({1})}, {Row({1, 2})}), Error);
  EXPECT_THROW(MeasureError(AccuracyMetric::kRelativeL2, {}, {Row({1})}), Error);
}

}  // namespace
}  // namespace collage
