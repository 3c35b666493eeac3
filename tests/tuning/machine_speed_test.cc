// The speed probe and the busy test of the tuner's busy-machine guard.
#include "tuning/machine_speed.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace collage {
namespace {

TEST(MachineSpeedTest, BusyMeansSlowerThanTheFactorTimesTheFastestProbe) {
  MachineSpeed speed(1.5);
  EXPECT_FALSE(speed.IsBusy(1.0)) << "nothing to compare with yet";
  speed.Observe(2e-3);
  speed.Observe(1e-3);
  speed.Observe(4e-3);
  ASSERT_TRUE(speed.fastest());
  EXPECT_EQ(*speed.fastest(), 1e-3);
  EXPECT_FALSE(speed.IsBusy(1.5e-3));
  EXPECT_TRUE(speed.IsBusy(1.6e-3));
}

// The probe does real work (not optimized away): even its fastest run takes a measurable time.
TEST(MachineSpeedTest, TheProbeDoesRealWork) {
  double fastest = 1.0;
  for (int i = 0; i < 5; ++i) fastest = std::min(fastest, TimeSpeedProbe());
  EXPECT_GT(fastest, 1e-4);
}

}  // namespace
}  // namespace collage
