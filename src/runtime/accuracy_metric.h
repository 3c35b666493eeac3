// How far a reduced-precision plan's outputs are from the f32 reference's, by the metric the
// user chose. Every metric is an error: 0 is exact, larger is worse, and the worst output of a
// model counts.
//   rel-l2   ||y - y_f32||_2 / ||y_f32||_2
//   max-rel  max |y - y_f32| / max |y_f32|
//   top1     the fraction of rows (last axis) whose argmax differs from the reference's
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "support/tensor.h"

namespace collage {

enum class AccuracyMetric { kRelativeL2, kMaxRelative, kTop1 };

// "rel-l2", "max-rel", "top1".
const char* AccuracyMetricName(AccuracyMetric metric);
std::optional<AccuracyMetric> ParseAccuracyMetric(std::string_view name);

// The metric over corresponding f32 outputs (the worst of them); throws Error when their
// counts or shapes differ or one is not f32.
double MeasureError(AccuracyMetric metric, const std::vector<Tensor>& actual, const std::vector<Tensor>& expected);

}  // namespace collage
