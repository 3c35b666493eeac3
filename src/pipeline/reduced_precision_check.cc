#include "pipeline/reduced_precision_check.h"

#include <sstream>

namespace collage {

ReducedPrecisionCheck CheckReducedPrecision(const Value& actual, const Value& reference, const PlanPrecision& precision) {
  ReducedPrecisionCheck check;
  check.error = MeasureError(precision.metric, actual.Flatten(), reference.Flatten());
  check.within_tolerance = check.error <= precision.tolerance;
  std::ostringstream message;
  message << "reduced-precision plan: " << AccuracyMetricName(precision.metric) << " " << check.error
          << " against the reference, " << (check.within_tolerance ? "within" : "over") << " the tolerance "
          << precision.tolerance;
  check.message = message.str();
  return check;
}

}  // namespace collage
