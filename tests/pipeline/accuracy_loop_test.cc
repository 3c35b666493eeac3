#include "pipeline/accuracy_loop.h"

#include <gtest/gtest.h>

#include <random>

namespace collage {
namespace {

// A mock plan whose error is the sum of the reduced partitions' errors alone.
struct AdditiveErrors {
  std::vector<ReducedPartitionCost> partitions;
  int measurements = 0;
  double operator()(const std::vector<bool>& reduced) {
    ++measurements;
    double error = 0;
    for (size_t i = 0; i < reduced.size(); ++i) error += reduced[i] ? partitions[i].error_alone : 0;
    return error;
  }
};

TEST(AccuracyLoopTest, StopsAtOnceWhenTheReducedPlanIsWithinTolerance) {
  AdditiveErrors plan{{{"a", 1e-3, 1e-3}, {"b", 2e-3, 2e-3}}};
  const AccuracyLoopResult result = RunAccuracyLoop(plan.partitions, 1e-2, std::ref(plan));
  EXPECT_EQ(result.reduced, (std::vector<bool>{true, true}));
  EXPECT_TRUE(result.moved_back.empty());
  EXPECT_EQ(plan.measurements, 1);
  EXPECT_TRUE(result.within_tolerance);
}

TEST(AccuracyLoopTest, MovesBackTheWorstErrorPerSecondSavedFirst) {
  // b costs as much accuracy as a but saves a tenth of the time: b goes back, a stays.
  AdditiveErrors plan{{{"a", 10e-3, 0.02}, {"b", 1e-3, 0.02}, {"c", 5e-3, 0.001}}};
  const AccuracyLoopResult result = RunAccuracyLoop(plan.partitions, 0.025, std::ref(plan));
  ASSERT_EQ(result.moved_back.size(), 1u);
  EXPECT_EQ(result.moved_back[0].partition, 1u);
  EXPECT_DOUBLE_EQ(result.moved_back[0].error_before, 0.041);
  EXPECT_EQ(result.reduced, (std::vector<bool>{true, false, true}));
  EXPECT_DOUBLE_EQ(result.error, 0.021);
  // A partition that saves nothing goes back before any that saves time.
  AdditiveErrors idle{{{"fast", 1e-3, 0.5}, {"idle", 0, 1e-6}}};
  EXPECT_EQ(RunAccuracyLoop(idle.partitions, 0.1, std::ref(idle)).moved_back[0].partition, 1u);
}

TEST(AccuracyLoopTest, NeverEndsOverTheToleranceUnlessEvenF32IsOver) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    AdditiveErrors plan;
    const int count = 1 + trial % 9;
    for (int i = 0; i < count; ++i) plan.partitions.push_back({"p", uniform(random) * 1e-3, uniform(random) * 0.01});
    const double tolerance = uniform(random) * 0.03;
    const AccuracyLoopResult result = RunAccuracyLoop(plan.partitions, tolerance, std::ref(plan));
    EXPECT_TRUE(result.within_tolerance);
    EXPECT_LE(result.error, tolerance);
    EXPECT_LE(plan.measurements, count + 1);
    // Minimal in the loop's order: the last partition moved back was needed.
    if (!result.moved_back.empty()) {
      EXPECT_GT(result.moved_back.back().error_before, tolerance);
    }
  }
  // A plan over the tolerance even at f32 (a mock with a floor): every partition goes back and
  // the result says it is still over.
  const std::vector<ReducedPartitionCost> partitions = {{"a", 1e-3, 0.1}};
  const AccuracyLoopResult over = RunAccuracyLoop(partitions, 0.01, [](const std::vector<bool>& reduced) {
    return 0.05 + (reduced[0] ? 0.1 : 0.0);
  });
  EXPECT_EQ(over.reduced, (std::vector<bool>{false}));
  EXPECT_FALSE(over.within_tolerance);
  EXPECT_DOUBLE_EQ(over.error, 0.05);
}

}  // namespace
}  // namespace collage
