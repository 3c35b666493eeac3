#include "tuning/confirmation_method.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace collage {
namespace {

// Twice the last-level cache (when the system says how large it is), the sleep kept, the runs
// capped, and a cool-down already larger never shrunk.
TEST(ConfirmationMethodTest, WritesTwiceTheLastLevelCacheAndKeepsTheRest) {
  MeasurementOptions tuning;
  SetInModelCoolDown(tuning);
  tuning.target_relative_error = 0.01;
  const MeasurementOptions confirmation = ConfirmationMethod(tuning);
  const long l3_bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3_bytes > 0) {
    EXPECT_GE(confirmation.cool_down_bytes, 2 * static_cast<size_t>(l3_bytes));
  }
  EXPECT_GE(confirmation.cool_down_bytes, tuning.cool_down_bytes);
  EXPECT_EQ(confirmation.cool_down_seconds, tuning.cool_down_seconds);
  EXPECT_EQ(confirmation.target_relative_error, tuning.target_relative_error);
  EXPECT_EQ(confirmation.max_runs, kMostConfirmationRuns);
  EXPECT_EQ(confirmation.min_runs, tuning.min_runs);
  EXPECT_NE(MeasurementMethod(confirmation), MeasurementMethod(tuning));

  MeasurementOptions huge = tuning;
  huge.cool_down_bytes = size_t{1} << 40;
  EXPECT_EQ(ConfirmationMethod(huge).cool_down_bytes, huge.cool_down_bytes);
}

}  // namespace
}  // namespace collage
