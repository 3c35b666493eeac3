#include "tuning/cpu_usage.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace collage {

TEST(CpuUsageTest, TheMachineIsBusyButForIdleAndInputOutputWait) {
  // user nice system idle iowait irq softirq steal guest guest_nice
  EXPECT_DOUBLE_EQ(*ParseMachineBusySeconds("cpu  300 100 50 9000 40 3 2 5 0 0", 100), 4.6);
  EXPECT_FALSE(ParseMachineBusySeconds("cpu0 300 100 50 9000 40 3 2 5 0 0", 100));  // one CPU's line
  EXPECT_FALSE(ParseMachineBusySeconds("cpu 1 2 3", 100));
  EXPECT_FALSE(ParseMachineBusySeconds("", 100));
}

TEST(CpuUsageTest, AProcessIsBusyForItsOwnAndItsWaitedForChildrensTime) {
  // Fields 14-17 (utime stime cutime cstime) are 12 13 14 15; the name holds ") (" and spaces.
  const std::string stat = "4242 (a) (b c) S 1 2 3 4 5 6 7 8 9 10 12 13 14 15 20 0 1 0 99";
  EXPECT_DOUBLE_EQ(*ParseProcessBusySeconds(stat, 100), 0.54);
  EXPECT_FALSE(ParseProcessBusySeconds("4242 (a) S 1 2 3", 100));
  EXPECT_FALSE(ParseProcessBusySeconds("no name here", 100));
}

TEST(CpuUsageTest, OtherProcessesHaveWhatTheMachineUsedBeyondTheWorkerAndTheTuner) {
  const CpuSnapshot before{10, 2, 1};
  EXPECT_DOUBLE_EQ(OtherProcessesSeconds(before, CpuSnapshot{13, 3.5, 1.25}), 1.25);
  EXPECT_DOUBLE_EQ(OtherProcessesSeconds(before, before), 0);
}

TEST(CpuUsageTest, ASnapshotOfThisProcessAsItsOwnWorker) {
  const std::optional<CpuSnapshot> snapshot = TakeCpuSnapshot(getpid());
  ASSERT_TRUE(snapshot) << "Linux's /proc tells every process's CPU time";
  EXPECT_GE(snapshot->machine, snapshot->tuner);
  // The same process read twice, the second read a moment later: equal but for one clock tick
  // (half a tick more of room for the division's rounding).
  const double tick = 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  EXPECT_LE(snapshot->worker, snapshot->tuner);
  EXPECT_LE(snapshot->tuner - snapshot->worker, 1.5 * tick);
  EXPECT_FALSE(TakeCpuSnapshot(-1));
}

}  // namespace collage
