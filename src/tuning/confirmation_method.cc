#include "tuning/confirmation_method.h"

#include <unistd.h>

#include <algorithm>

namespace collage {

MeasurementOptions ConfirmationMethod(MeasurementOptions measurement) {
  constexpr size_t kUnknownLastLevelBytes = size_t{32} << 20;
  const long l3_bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  const long l2_bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
  const long last_level_bytes = std::max(l3_bytes, l2_bytes);
  measurement.cool_down_bytes =
      std::max(measurement.cool_down_bytes,
               2 * (last_level_bytes > 0 ? static_cast<size_t>(last_level_bytes) : kUnknownLastLevelBytes));
  measurement.max_runs = std::max(measurement.min_runs, std::min(measurement.max_runs, kMostConfirmationRuns));
  return measurement;
}

}  // namespace collage
