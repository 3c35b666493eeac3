// Timing loops: warm-up, count and time budgets, the reported percentile.
#include "tuning/measurement.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "backend/backend.h"
#include "backend/boundary_layout.h"
#include "backend/reference/reference_backend.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

TEST(MeasurementTest, WarmupThenAtLeastMinRunsAndAtMostMaxRuns) {
  int calls = 0;
  MeasurementOptions options;
  options.warmup_runs = 3;
  options.min_runs = 4;
  options.max_runs = 6;
  options.budget_seconds = 0;  // satisfied at once: stop at min_runs
  Measurement measurement = MeasureRepeatedly([&] { ++calls; }, options);
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(measurement.runs, 4);

  calls = 0;
  options.budget_seconds = 1e9;  // never satisfied: stop at max_runs
  measurement = MeasureRepeatedly([&] { ++calls; }, options);
  EXPECT_EQ(calls, 9);
  EXPECT_EQ(measurement.runs, 6);
}

TEST(MeasurementTest, TimeBudgetStopsSlowRuns) {
  MeasurementOptions options;
  options.warmup_runs = 0;
  options.min_runs = 2;
  options.max_runs = 1000;
  options.budget_seconds = 0.05;
  const Measurement measurement =
      MeasureRepeatedly([] { std::this_thread::sleep_for(std::chrono::milliseconds(10)); }, options);
  EXPECT_GE(measurement.runs, 2);
  EXPECT_LE(measurement.runs, 10);
  EXPECT_GE(measurement.median_seconds, 0.009);
}

// A run of 30 ms that counts its calls in `calls`.
std::function<void()> CountedRunOf30Ms(int& calls) {
  return [&calls] {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  };
}

// A run longer than the whole budget ends the warm-up after one run, and two timed runs follow.
TEST(MeasurementTest, ARunLongerThanTheBudgetIsTimedTwice) {
  int calls = 0;
  MeasurementOptions options;
  options.warmup_runs = 2;
  options.min_runs = 5;
  options.budget_seconds = 0.02;
  const std::function<void()> run_30_ms = CountedRunOf30Ms(calls);
  const Measurement measurement = MeasureRepeatedly(run_30_ms, options);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(measurement.runs, 2);
  options.budget_seconds = 0.2;  // the same runs within the budget: the whole warm-up and min_runs
  calls = 0;
  EXPECT_GE(MeasureRepeatedly(run_30_ms, options).runs, 5);
  EXPECT_GE(calls, 7);
}

// A warm-up run above the dominance threshold is the whole measurement; below it, the threshold
// changes nothing.
TEST(MeasurementTest, AWarmUpRunAboveTheDominanceThresholdEndsTheMeasurement) {
  int calls = 0;
  MeasurementOptions options;
  options.warmup_runs = 2;
  options.min_runs = 5;
  options.budget_seconds = 1;
  options.dominated_above_seconds = 0.01;
  const std::function<void()> run_30_ms = CountedRunOf30Ms(calls);
  Measurement measurement = MeasureRepeatedly(run_30_ms, options);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(measurement.runs, 1);
  EXPECT_TRUE(measurement.dominated);
  EXPECT_GE(measurement.seconds, 0.029);
  EXPECT_EQ(measurement.seconds, measurement.median_seconds);

  options.dominated_above_seconds = 10;
  calls = 0;
  measurement = MeasureRepeatedly(run_30_ms, options);
  EXPECT_FALSE(measurement.dominated);
  EXPECT_GE(measurement.runs, 5);
  EXPECT_GE(calls, 7);
}

// Spins until `seconds` have passed: a run whose time hardly varies.
void SpinFor(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
  }
}

// With a target error, steady runs stop soon after min_runs, while runs that alternate between
// 1 and 3 ms (a median known only roughly) still run to max_runs; without one, steady runs do too.
TEST(MeasurementTest, PreciseEnoughTimingsStopBeforeTheBudget) {
  MeasurementOptions options;
  options.warmup_runs = 0;
  options.min_runs = 5;
  options.max_runs = 40;
  options.budget_seconds = 10;
  options.target_relative_error = 0.01;
  EXPECT_LT(MeasureRepeatedly([] { SpinFor(1e-3); }, options).runs, options.max_runs);
  int call = 0;
  EXPECT_EQ(MeasureRepeatedly([&] { SpinFor(++call % 2 == 0 ? 3e-3 : 1e-3); }, options).runs, options.max_runs);
  options.target_relative_error = 0;
  EXPECT_EQ(MeasureRepeatedly([] { SpinFor(1e-3); }, options).runs, options.max_runs);
}

TEST(MeasurementTest, ReportedSecondsAreTheConfiguredPercentile) {
  MeasurementOptions options;
  options.warmup_runs = 0;
  options.min_runs = options.max_runs = 5;
  options.percentile = 1.0;
  int call = 0;
  // Runs of 1, 1, 1, 1 and 20 ms: the median is about 1 ms, the maximum about 20 ms.
  const Measurement measurement = MeasureRepeatedly(
      [&] { std::this_thread::sleep_for(std::chrono::milliseconds(++call == 5 ? 20 : 1)); }, options);
  EXPECT_GE(measurement.seconds, 0.019);
  EXPECT_LT(measurement.median_seconds, 0.015);
  EXPECT_LE(measurement.p10_seconds, measurement.median_seconds);
  EXPECT_LE(measurement.median_seconds, measurement.p90_seconds);
}

TEST(MeasurementTest, CoolDownPrecedesEveryRunAndIsNotTimed) {
  MeasurementOptions options;
  options.warmup_runs = 1;
  options.min_runs = options.max_runs = 4;
  options.cool_down_bytes = 1 << 20;
  options.cool_down_seconds = 0.005;
  int runs = 0;
  const auto start = std::chrono::steady_clock::now();
  const Measurement measurement = MeasureRepeatedly([&] { ++runs; }, options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(runs, 5);
  EXPECT_GE(wall, 5 * 0.005);                // a sleep before each of the 5 runs
  EXPECT_LT(measurement.p90_seconds, 0.004);  // none of it in the run times
  EXPECT_TRUE(options.cools_down());
  EXPECT_FALSE(MeasurementOptions{}.cools_down());
}

TEST(MeasurementTest, BadOptionsAreErrors) {
  MeasurementOptions options;
  options.min_runs = 0;
  EXPECT_THROW(MeasureRepeatedly([] {}, options), Error);
  options.min_runs = 3;
  options.percentile = 1.5;
  EXPECT_THROW(MeasureRepeatedly([] {}, options), Error);
  options.percentile = 0.5;
  options.cool_down_seconds = -1;
  EXPECT_THROW(MeasureRepeatedly([] {}, options), Error);
  options.cool_down_seconds = 0;
  options.dominated_above_seconds = -1;
  EXPECT_THROW(MeasureRepeatedly([] {}, options), Error);
}

TEST(MeasurementTest, MeasuresACompiledPartitionOnRandomInputs) {
  MeasurementOptions options;
  options.min_runs = options.max_runs = 3;
  const Measurement measurement =
      MeasurePartition(ReferenceBackend(), testing::MakeConvBiasRelu(), CompileOptions{}, options, 1);
  EXPECT_EQ(measurement.runs, 3);
  EXPECT_GT(measurement.median_seconds, 0);
}

// Three channels pad to a whole block in a channel-blocked layout: every boundary a backend
// declares is measurable there, the padded ones included (they were once refused as "cannot
// reshape", which made every candidate with such a value invalid).
TEST(MeasurementTest, MeasuresEveryDeclaredBoundaryOfAThreeChannelConvolution) {
  MeasurementOptions options;
  options.min_runs = options.max_runs = 1;
  size_t padded = 0;
  bool blocked_declared = false;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    const SupportDeclaration declaration = backend->Support();
    for (Layout layout : declaration.boundary_layouts) blocked_declared |= ChannelBlock(layout) != 0;
    std::vector<PartitionLayouts> boundaries = declaration.mixed_boundary_layouts;
    for (Layout layout : declaration.boundary_layouts) boundaries.push_back(PartitionLayouts::Uniform(layout));
    for (const PartitionLayouts& layouts : boundaries) {
      const Function function = WithBoundaryLayouts(testing::MakeConvBiasRelu(), layouts);
      try {
        backend->Compile(function, CompileOptions{});
      } catch (const Error&) {
        continue;  // the backend does not run this function; not what is tested here
      }
      EXPECT_NO_THROW(MeasurePartition(*backend, function, CompileOptions{}, options, 1))
          << backend->name() << " " << PartitionLayoutsName(layouts);
      padded += ChannelBlock(layouts.parameters) != 0;
    }
  }
  EXPECT_EQ(padded > 0, blocked_declared);
}

}  // namespace
}  // namespace collage
