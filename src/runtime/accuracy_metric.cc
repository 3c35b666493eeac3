#include "runtime/accuracy_metric.h"

#include <algorithm>
#include <cmath>

#include "support/error.h"

namespace collage {
namespace {

double RelativeL2(const float* actual, const float* expected, int64_t count) {
  double difference = 0;
  double norm = 0;
  for (int64_t i = 0; i < count; ++i) {
    difference += std::pow(static_cast<double>(actual[i]) - expected[i], 2);
    norm += std::pow(static_cast<double>(expected[i]), 2);
  }
  if (norm == 0) return difference == 0 ? 0 : INFINITY;
  return std::sqrt(difference / norm);
}

double MaxRelative(const float* actual, const float* expected, int64_t count) {
  double difference = 0;
  double magnitude = 0;
  for (int64_t i = 0; i < count; ++i) {
    difference = std::max(difference, std::fabs(static_cast<double>(actual[i]) - expected[i]));
    magnitude = std::max(magnitude, std::fabs(static_cast<double>(expected[i])));
  }
  if (magnitude == 0) return difference == 0 ? 0 : INFINITY;
  return difference / magnitude;
}

double Top1Disagreement(const float* actual, const float* expected, const Shape& shape) {
  const int64_t classes = shape.empty() ? 1 : shape.back();
  const int64_t rows = classes == 0 ? 0 : NumElements(shape) / classes;
  if (rows == 0) return 0;
  int64_t disagreements = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const float* a = actual + row * classes;
    const float* e = expected + row * classes;
    if (std::max_element(a, a + classes) - a != std::max_element(e, e + classes) - e) ++disagreements;
  }
  return static_cast<double>(disagreements) / static_cast<double>(rows);
}

}  // namespace

const char* AccuracyMetricName(AccuracyMetric metric) {
  switch (metric) {
    case AccuracyMetric::kRelativeL2:
      return "rel-l2";
    case AccuracyMetric::kMaxRelative:
      return "max-rel";
    case AccuracyMetric::kTop1:
      return "top1";
  }
  return "?";
}

std::optional<AccuracyMetric> ParseAccuracyMetric(std::string_view name) {
  for (AccuracyMetric metric : {AccuracyMetric::kRelativeL2, AccuracyMetric::kMaxRelative, AccuracyMetric::kTop1}) {
    if (name == AccuracyMetricName(metric)) return metric;
  }
  return std::nullopt;
}

double MeasureError(AccuracyMetric metric, const std::vector<Tensor>& actual, const std::vector<Tensor>& expected) {
  if (actual.size() != expected.size()) {
    throw Error("accuracy: " + std::to_string(actual.size()) + " outputs compared with " +
                std::to_string(expected.size()) + " reference outputs");
  }
  double worst = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (actual[i].dtype() != DType::kF32 || expected[i].dtype() != DType::kF32 ||
        actual[i].shape() != expected[i].shape()) {
      throw Error("accuracy: output " + std::to_string(i) + " is not an f32 tensor of the reference's shape");
    }
    const float* a = actual[i].data<float>();
    const float* e = expected[i].data<float>();
    const int64_t count = expected[i].NumElements();
    double error = 0;
    switch (metric) {
      case AccuracyMetric::kRelativeL2:
        error = RelativeL2(a, e, count);
        break;
      case AccuracyMetric::kMaxRelative:
        error = MaxRelative(a, e, count);
        break;
      case AccuracyMetric::kTop1:
        error = Top1Disagreement(a, e, expected[i].shape());
        break;
    }
    worst = std::max(worst, error);
  }
  return worst;
}

}  // namespace collage
