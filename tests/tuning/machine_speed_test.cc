// The speed probe and the busy test of the tuner's busy-machine guard.
#include "tuning/machine_speed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace collage {
namespace {

TEST(MachineSpeedTest, BusyMeansSlowerThanTheFactorTimesTheFastestProbe) {
  MachineSpeed speed(nullptr, 1.5);
  EXPECT_FALSE(speed.IsBusy(1.0)) << "nothing to compare with yet";
  speed.Observe(2e-3);
  speed.Observe(1e-3);
  speed.Observe(4e-3);
  ASSERT_TRUE(speed.fastest());
  EXPECT_EQ(*speed.fastest(), 1e-3);
  EXPECT_FALSE(speed.IsBusy(1.5e-3));
  EXPECT_TRUE(speed.IsBusy(1.6e-3));
}

// A probe that is busy for its first `busy_calls` calls (10 ms), then calm (1 ms).
std::function<double()> BusyThenCalm(int busy_calls) {
  return [calls = std::make_shared<int>(0), busy_calls] { return ++*calls <= busy_calls ? 1e-2 : 1e-3; };
}

TEST(MachineSpeedTest, WaitsUntilAProbeIsCalmWithinItsTime) {
  MachineSpeed speed(BusyThenCalm(3));
  speed.Observe(1e-3);
  double seconds_left = 5;
  EXPECT_TRUE(speed.WaitUntilCalm(seconds_left));
  EXPECT_LT(seconds_left, 5 - 0.25) << "three pauses of 0.1 s";

  MachineSpeed busy(BusyThenCalm(1000));
  busy.Observe(1e-3);
  seconds_left = 0.25;
  EXPECT_FALSE(busy.WaitUntilCalm(seconds_left));
  EXPECT_LE(seconds_left, 0);
}

TEST(MachineSpeedTest, TheBaselineIsTakenOnce) {
  MachineSpeed speed(BusyThenCalm(1));
  speed.EnsureBaseline(3);
  EXPECT_EQ(*speed.fastest(), 1e-3);
  MachineSpeed without_probe(nullptr);
  without_probe.EnsureBaseline();
  EXPECT_FALSE(without_probe.fastest());
  EXPECT_FALSE(without_probe.IsBusy(without_probe.Probe()));
}

// The probe does real work (not optimized away): even its fastest run takes a measurable time.
TEST(MachineSpeedTest, TheProbeDoesRealWork) {
  double fastest = 1.0;
  for (int i = 0; i < 5; ++i) fastest = std::min(fastest, TimeSpeedProbe(2));
  EXPECT_GT(fastest, 1e-4);
}

// Every thread of a multi-threaded probe works at the same time: each waits (at most 10 s) until
// all have started their work, which could never happen if they ran one after another.
TEST(MachineSpeedTest, TheThreadsOfAProbeWorkAtTheSameTime) {
  constexpr int kThreads = 3;
  std::mutex mutex;
  std::condition_variable all_arrived;
  std::set<std::thread::id> arrived;
  bool timed_out = false;
  TimeOnThreads(kThreads, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    arrived.insert(std::this_thread::get_id());
    all_arrived.notify_all();
    if (!all_arrived.wait_for(lock, std::chrono::seconds(10), [&] { return arrived.size() == kThreads; })) {
      timed_out = true;
    }
  });
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(arrived.size(), static_cast<size_t>(kThreads)) << "one distinct thread per share of the work";
}

TEST(MachineSpeedTest, AProbeIsBoundToTheMeasurementsThreadCount) {
  std::vector<int> asked;
  const std::function<double()> bound = ProbeOnThreads([&](int threads) {
    asked.push_back(threads);
    return 1e-3;
  }, 2);
  EXPECT_EQ(bound(), 1e-3);
  EXPECT_EQ(asked, std::vector<int>{2});
  EXPECT_FALSE(ProbeOnThreads(nullptr, 2));
}

}  // namespace
}  // namespace collage
