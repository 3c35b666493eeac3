// What a placement request asks of precision: `fp32` (every partition computes in f32, the
// default) or `auto` (the search may also choose reduced-precision variants of partitions, then
// partitions go back to f32 until the plan's error on the calibration inputs is within the
// tolerance by the metric).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/accuracy_metric.h"

namespace collage {

enum class PrecisionMode { kFp32, kAuto };

// "fp32", "auto".
const char* PrecisionModeName(PrecisionMode mode);
std::optional<PrecisionMode> ParsePrecisionMode(std::string_view name);

struct PrecisionRequest {
  PrecisionMode mode = PrecisionMode::kFp32;
  double tolerance = 1e-2;
  AccuracyMetric metric = AccuracyMetric::kRelativeL2;
  // .npz files of @main's arguments by parameter name, one argument set each; empty:
  // kDefaultCalibrationSets seeded random sets.
  std::vector<std::string> calibration_files;
};

inline constexpr size_t kDefaultCalibrationSets = 8;

}  // namespace collage
