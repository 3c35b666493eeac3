// `collage run --check` of a plan with reduced-precision partitions: its outputs cannot match the
// reference element by element, so they are held to the plan's tolerance by the plan's metric.
#pragma once

#include <string>

#include "pipeline/plan_file.h"
#include "support/value.h"

namespace collage {

struct ReducedPrecisionCheck {
  double error = 0;
  bool within_tolerance = false;
  // "reduced-precision plan: rel-l2 0.0042 against the reference, within the plan's tolerance 0.01"
  std::string message;
};

// Throws Error when the outputs are not f32 tensors of the reference's shapes.
ReducedPrecisionCheck CheckReducedPrecision(const Value& actual, const Value& reference, const PlanPrecision& precision);

}  // namespace collage
