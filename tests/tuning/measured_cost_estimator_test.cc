// Measured tuning end to end on test backends: invalid candidates of failing, hanging and
// crashing backends do not stop the search, the cost database makes a second tuning measure
// nothing, and timings taken while the machine was busy are taken again, and measured again by
// a tuning on a calmer machine.
#include "tuning/measured_cost_estimator.h"

#include <gtest/gtest.h>

#include <memory>

#include "build_paths.h"
#include "backend/reference/reference_backend.h"
#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "collage/collage_test_graphs.h"
#include "testing/faulty_backends.h"
#include "runtime/sqlite_connection.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

const std::string kTestWorker = std::string(COLLAGE_BINARY_DIR) + "/bin/collage-test-measure-worker";

class MeasuredCostEstimatorTest : public ::testing::Test {
 protected:
  MeasuredCostEstimatorTest() {
    registry_.Register(std::make_shared<ReferenceBackend>());
    testing::RegisterFaultyBackends(registry_, testing::kFaultyBackendOps);
  }

  std::vector<PartitionSpec> Specs(const std::vector<std::string>& backends) const {
    std::vector<PartitionSpec> specs;
    for (const std::string& name : backends) specs.push_back(MakePartitionSpec(registry_.Get(name)->Support()));
    specs.push_back(MakeHostSpec());
    return specs;
  }

  MeasuredCostOptions Options(int threads = 1) const {
    MeasuredCostOptions options;
    options.worker_path = kTestWorker;
    options.threads = threads;
    options.timeout_seconds = 0.5;
    options.measurement.min_runs = options.measurement.max_runs = 2;
    options.show_progress = false;
    options.speed_probe = [](int) { return 1e-3; };  // a steady machine, unless a test says otherwise
    return options;
  }

  // Options whose speed probe takes `probe_seconds(call)` on its call-th call (from 1).
  MeasuredCostOptions ScriptedProbe(std::function<double(int call)> probe_seconds) const {
    MeasuredCostOptions options = Options();
    options.speed_probe = [calls = std::make_shared<int>(0), probe_seconds](int) { return probe_seconds(++*calls); };
    options.busy_wait_seconds = 0.2;
    return options;
  }

  // Node `node` of `graph` alone as a partition of the "good" backend, priced outside a search.
  static CandidatePartition GoodCandidateOfNode(const DataflowGraph& graph, size_t node) {
    const SubGraph inside(graph, IndexSet(graph.size(), {node}));
    return CandidatePartition(
        inside.WithAttrs(graph, Attrs{{attr::kPrimitive, int64_t{1}}, {attr::kCompiler, std::string("good")}}), "good",
        "good", "test");
  }

  // The backends of the chosen partitions, host candidates left out.
  static std::set<std::string> ChosenBackends(const PartitionResult& result) {
    std::set<std::string> backends;
    for (size_t c = 0; c < result.chosen.size(); ++c) {
      if (!result.symbols[c].empty()) backends.insert(result.chosen[c].backend());
    }
    return backends;
  }

  BackendRegistry registry_;
  testing::TempDirectory directory_;
};

TEST_F(MeasuredCostEstimatorTest, FailingHangingAndCrashingCandidatesAreInvalidAndTheSearchFinishes) {
  MeasuredCostEstimator estimator(registry_, Options(), nullptr);
  const PartitionResult result =
      Partition(collage_testing::MakeDiamond(), Specs({"failing", "hanging", "crashing", "good"}), estimator);
  EXPECT_EQ(ChosenBackends(result), std::set<std::string>{"good"});
  EXPECT_TRUE(result.total.IsKnown());
  std::set<std::string> reasons;
  for (const InvalidCandidate& invalid : estimator.invalid()) {
    const std::string backend = invalid.description.substr(0, invalid.description.find(':'));
    if (backend == "failing") {
      EXPECT_NE(invalid.reason.find("compiles nothing"), std::string::npos) << invalid.reason;
    } else if (backend == "hanging") {
      EXPECT_EQ(invalid.reason, "timed out after 0.5 s (transient, measured again next time)");
    } else if (backend == "crashing") {
      EXPECT_NE(invalid.reason.find("died: killed by signal"), std::string::npos) << invalid.reason;
    }
    reasons.insert(backend);
  }
  EXPECT_EQ(reasons, (std::set<std::string>{"failing", "hanging", "crashing"}));
  EXPECT_EQ(estimator.stats().invalid, estimator.invalid().size());
  EXPECT_EQ(estimator.stats().measured, estimator.stats().distinct);
}

TEST_F(MeasuredCostEstimatorTest, ASecondTuningReadsEveryCostFromTheDatabase) {
  const std::string path = directory_.PathOf("costs.sqlite");
  const Function model = collage_testing::MakeSkip();
  const std::vector<PartitionSpec> specs = Specs({"good", "reference", "failing"});
  CostDatabase database = CostDatabase::Open(path);
  MeasuredCostEstimator first(registry_, Options(), &database);
  const PartitionResult tuned = Partition(model, specs, first);
  ASSERT_GT(first.stats().measured, 0u);
  EXPECT_EQ(first.stats().from_database, 0u);

  MeasuredCostEstimator second(registry_, Options(), &database);
  const PartitionResult recalled = Partition(model, specs, second);
  EXPECT_EQ(second.stats().measured, 0u);
  EXPECT_EQ(second.stats().from_database, first.stats().distinct);
  EXPECT_EQ(second.invalid().size(), first.invalid().size());  // invalid ones are remembered, with their reason
  EXPECT_EQ(recalled.total, tuned.total);
  EXPECT_EQ(ChosenBackends(recalled), ChosenBackends(tuned));

  // Another thread count is another key: everything is measured again.
  MeasuredCostEstimator other_threads(registry_, Options(/*threads=*/2), &database);
  Partition(model, specs, other_threads);
  EXPECT_EQ(other_threads.stats().from_database, 0u);
  EXPECT_EQ(other_threads.stats().measured, first.stats().distinct);

  // So is another measurement method (a cool-down before each run); the same one again is not.
  MeasuredCostOptions cooled_options = Options();
  SetInModelCoolDown(cooled_options.measurement);
  MeasuredCostEstimator cooled(registry_, cooled_options, &database);
  Partition(model, specs, cooled);
  EXPECT_EQ(cooled.stats().from_database, 0u);
  EXPECT_EQ(cooled.stats().measured, first.stats().distinct);
  MeasuredCostEstimator cooled_again(registry_, cooled_options, &database);
  Partition(model, specs, cooled_again);
  EXPECT_EQ(cooled_again.stats().measured, 0u);
  EXPECT_EQ(database.CheckIntegrity(), "ok");
}

TEST_F(MeasuredCostEstimatorTest, TransientFailuresAreMeasuredAgainByTheNextTuningAndCrashesAreNot) {
  const std::string path = directory_.PathOf("costs.sqlite");
  const Function model = collage_testing::MakeDiamond();
  CostDatabase database = CostDatabase::Open(path);
  auto tune = [&](const std::vector<std::string>& backends) {
    auto estimator = std::make_unique<MeasuredCostEstimator>(registry_, Options(), &database);
    Partition(model, Specs(backends), *estimator);
    return estimator;
  };
  const auto killed = tune({"killed", "good"});
  ASSERT_GT(killed->stats().transient, 0u);
  const size_t killed_distinct = killed->stats().transient;
  for (const InvalidCandidate& invalid : killed->invalid()) {
    EXPECT_NE(invalid.reason.find("killed by signal 9"), std::string::npos) << invalid.reason;
    EXPECT_NE(invalid.reason.find("(transient, measured again next time)"), std::string::npos) << invalid.reason;
  }
  EXPECT_EQ(database.GetStats().transient, killed_distinct);
  const auto killed_again = tune({"killed", "good"});
  EXPECT_EQ(killed_again->stats().measured, killed_distinct) << "only the killed candidates are measured again";
  EXPECT_EQ(killed_again->stats().transient, killed_distinct);

  const auto hanging = tune({"hanging", "good"});
  ASSERT_GT(hanging->stats().transient, 0u);
  EXPECT_EQ(tune({"hanging", "good"})->stats().measured, hanging->stats().transient);

  const auto crashing = tune({"crashing", "failing", "good"});
  ASSERT_GT(crashing->stats().invalid, 0u);
  EXPECT_EQ(crashing->stats().transient, 0u);
  const auto crashing_again = tune({"crashing", "failing", "good"});
  EXPECT_EQ(crashing_again->stats().measured, 0u) << "crashes and compile failures are recalled";
  EXPECT_EQ(crashing_again->stats().invalid, crashing->stats().invalid);
}

TEST_F(MeasuredCostEstimatorTest, IdenticalCandidatesAreMeasuredOnce) {
  // Four identical relu -> tanh blocks in a chain: one distinct function per candidate shape.
  Var x = MakeVar("x", testing::F32({2, 3}));
  Expr value = x;
  for (int block = 0; block < 4; ++block) value = CallOp("tanh", {CallOp("nn.relu", {value})});
  MeasuredCostEstimator estimator(registry_, Options(), nullptr);
  Partition(MakeFunction({x}, value), Specs({"good"}), estimator);
  EXPECT_GT(estimator.stats().candidates, estimator.stats().distinct);
  EXPECT_EQ(estimator.stats().measured, estimator.stats().distinct);
}

// "slow" runs the same operators as "good", 20 ms slower per run: once a "good" candidate is
// timed (first, for its higher stated speed, although "slow" comes first in the specs), the
// "slow" one over the same operators is dominated and timed once. Without the alternative,
// "slow" candidates are timed as usual.
TEST_F(MeasuredCostEstimatorTest, AFarSlowerAlternativeIsTimedOnce) {
  MeasuredCostEstimator tuner(registry_, Options(), nullptr);
  Partition(collage_testing::MakeDiamond(), Specs({"slow", "good"}), tuner);
  ASSERT_GT(tuner.stats().distinct, 0u);
  EXPECT_EQ(tuner.stats().dominated * 2, tuner.stats().distinct);
  EXPECT_NE(tuner.stats().ToString().find("timed once, dominated by a far faster alternative"), std::string::npos);

  MeasuredCostEstimator alone(registry_, Options(), nullptr);
  Partition(collage_testing::MakeDiamond(), Specs({"slow"}), alone);
  EXPECT_GT(alone.stats().measured, 0u);
  EXPECT_EQ(alone.stats().dominated, 0u);
}

// A burst during the second timing (its probes ten times the others; the first three probes
// are the tuning's baseline, the next two surround the first timing): that candidate is timed again
// once the machine is calm, and everything ends up stored.
TEST_F(MeasuredCostEstimatorTest, ATimingDuringABurstIsTakenAgainAndStored) {
  const Function model = collage_testing::MakeSkip();
  const std::vector<PartitionSpec> specs = Specs({"good", "reference"});
  CostDatabase database = CostDatabase::Open(directory_.PathOf("costs.sqlite"));
  MeasuredCostEstimator tuner(registry_, ScriptedProbe([](int call) { return call == 6 || call == 7 ? 1e-2 : 1e-3; }),
                              &database);
  Partition(model, specs, tuner);
  ASSERT_GT(tuner.stats().measured, 2u);
  EXPECT_EQ(tuner.stats().retimed, 1u);
  EXPECT_EQ(tuner.stats().busy, 0u);
  EXPECT_NE(tuner.stats().ToString().find("1 timed again after the machine was busy"), std::string::npos);
  MeasuredCostEstimator again(registry_, Options(), &database);
  Partition(model, specs, again);
  EXPECT_EQ(again.stats().measured, 0u);
}

// A burst that outlasts the wait: the busy timings are not taken again (the machine never
// calmed, a second timing would be as slow), they are used and stored with their slow probes.
// A tuning on a machine as slow as that recalls them; one on the calm machine measures exactly
// those again (and then stores them with calm probes).
TEST_F(MeasuredCostEstimatorTest, TimingsThatStayBusyAreMeasuredAgainOnACalmerMachine) {
  const Function model = collage_testing::MakeSkip();
  const std::vector<PartitionSpec> specs = Specs({"good", "reference"});
  CostDatabase database = CostDatabase::Open(directory_.PathOf("costs.sqlite"));
  // The first measurement's probes (after the three of the baseline) are calm, all later ones not.
  MeasuredCostEstimator tuner(registry_, ScriptedProbe([](int call) { return call <= 5 ? 1e-3 : 1e-2; }), &database);
  const PartitionResult result = Partition(model, specs, tuner);
  EXPECT_TRUE(result.total.IsKnown());
  const size_t busy = tuner.stats().measured - 1;
  ASSERT_GT(busy, 0u);
  EXPECT_EQ(tuner.stats().retimed, 0u);
  EXPECT_EQ(tuner.stats().busy, busy);

  MeasuredCostEstimator as_slow(registry_, ScriptedProbe([](int) { return 1e-2; }), &database);
  Partition(model, specs, as_slow);
  EXPECT_EQ(as_slow.stats().measured, 0u);
  MeasuredCostEstimator calm(registry_, Options(), &database);
  Partition(model, specs, calm);
  EXPECT_EQ(calm.stats().measured, busy);
  EXPECT_EQ(calm.stats().from_busier, busy);
  MeasuredCostEstimator calm_again(registry_, Options(), &database);
  Partition(model, specs, calm_again);
  EXPECT_EQ(calm_again.stats().measured, 0u);
}

// A burst at the start of a tuning: its first timings look normal against the slow probes
// seen so far and are stored, then judged again against the fastest probe of the tuning and
// taken again.
TEST_F(MeasuredCostEstimatorTest, TimingsOfABurstAtTheStartAreJudgedAgainstTheFastestProbe) {
  const Function model = collage_testing::MakeSkip();
  MeasuredCostEstimator tuner(registry_, ScriptedProbe([](int call) { return call <= 7 ? 1e-2 : 1e-3; }), nullptr);
  Partition(model, Specs({"good", "reference"}), tuner);
  ASSERT_GT(tuner.stats().measured, 2u);
  EXPECT_EQ(tuner.stats().retimed, 2u);
  EXPECT_EQ(tuner.stats().busy, 0u);
}

// A candidate priced alone after the search (a merged partition: Estimate without Prepare) whose
// timing a burst covered (its two probes, after the three of the baseline, ten times slower) is
// timed again once a probe finds the machine calm, and stored with the calm timing's probes, so a
// calm tuning recalls it.
TEST_F(MeasuredCostEstimatorTest, AnEstimateTimedDuringABurstIsTakenAgain) {
  const DataflowGraph graph = collage_testing::GraphOf(collage_testing::MakeSkip());
  const CandidatePartition candidate = GoodCandidateOfNode(graph, 1);
  CostDatabase database = CostDatabase::Open(directory_.PathOf("costs.sqlite"));
  MeasuredCostEstimator tuner(registry_, ScriptedProbe([](int call) { return call == 4 || call == 5 ? 1e-2 : 1e-3; }),
                              &database);
  EXPECT_TRUE(tuner.Estimate(graph, candidate).IsKnown());
  EXPECT_EQ(tuner.stats().measured, 1u);
  EXPECT_EQ(tuner.stats().retimed, 1u);
  EXPECT_EQ(tuner.stats().busy, 0u);
  MeasuredCostEstimator calm(registry_, Options(), &database);
  EXPECT_TRUE(calm.Estimate(graph, candidate).IsKnown());
  EXPECT_EQ(calm.stats().measured, 0u);
}

// Confirm times a candidate kConfirmRounds times as options.confirmation says (here a cool-down
// of 4096 bytes, which names its own cost key) and its fastest timing is the estimate from then
// on, whatever the ordinary key stored (a burst-inflated 10 s, or an impossible 1e-12 s). A
// later confirmation keeps the stored confirmation when it is faster than its timings (the
// negative control: an impossible 1e-12 s) and replaces it when slower (10 s).
TEST_F(MeasuredCostEstimatorTest, ConfirmTimesWithItsOwnMethodAndKeepsTheFastest) {
  const DataflowGraph graph = collage_testing::GraphOf(collage_testing::MakeSkip());
  const CandidatePartition candidate = GoodCandidateOfNode(graph, 1);
  const std::string path = directory_.PathOf("costs.sqlite");
  CostDatabase database = CostDatabase::Open(path);
  MeasuredCostOptions options = Options();
  options.confirmation = options.measurement;
  options.confirmation->cool_down_bytes = 4096;
  const auto store_cost = [&](const char* method_is, double seconds) {
    SqliteConnection connection = SqliteConnection::Open(path);
    connection.Prepare(std::string("UPDATE costs SET seconds = ? WHERE backend_version ") + method_is)
        .Bind(1, seconds)
        .Run();
    ASSERT_EQ(connection.Changes(), 1);
  };
  const char* kConfirmation = "LIKE '%cool-down 4096B%'";
  const char* kOrdinary = "NOT LIKE '%cool-down%'";
  {
    MeasuredCostEstimator first(registry_, options, &database);
    ASSERT_TRUE(first.Estimate(graph, candidate).IsKnown());
  }
  for (const double ordinary : {10.0, 1e-12}) {
    store_cost(kOrdinary, ordinary);
    MeasuredCostEstimator tuner(registry_, options, &database);
    EXPECT_EQ(tuner.Estimate(graph, candidate), Cost::Seconds(ordinary));
    tuner.Confirm(graph, {candidate, candidate});  // the same candidate twice is confirmed once
    EXPECT_EQ(tuner.stats().confirmed, static_cast<size_t>(MeasuredCostEstimator::kConfirmRounds));
    const Cost confirmed = tuner.Estimate(graph, candidate);
    EXPECT_GT(confirmed, Cost::Seconds(1e-12));
    EXPECT_LT(confirmed, Cost::Seconds(1.0));
    EXPECT_NE(tuner.stats().ToString().find(std::to_string(MeasuredCostEstimator::kConfirmRounds) +
                                            " timings taken to confirm a decision"),
              std::string::npos)
        << tuner.stats().ToString();
  }
  // The stored confirmation against the new timings.
  store_cost(kConfirmation, 1e-12);
  MeasuredCostEstimator kept(registry_, options, &database);
  kept.Confirm(graph, {candidate});
  EXPECT_EQ(kept.Estimate(graph, candidate), Cost::Seconds(1e-12));
  store_cost(kConfirmation, 10.0);
  MeasuredCostEstimator replaced(registry_, options, &database);
  replaced.Confirm(graph, {candidate});
  EXPECT_LT(replaced.Estimate(graph, candidate), Cost::Seconds(1.0));
}

// Without a confirmation method, Confirm times as the tuning does, under the same key: a stored
// cost far above what the candidate takes (as if a burst covered its timing without the probes
// noticing) is replaced by a faster timing, in the estimates and in the database.
TEST_F(MeasuredCostEstimatorTest, ConfirmWithoutItsOwnMethodReplacesASlowerStoredCost) {
  const DataflowGraph graph = collage_testing::GraphOf(collage_testing::MakeSkip());
  const CandidatePartition candidate = GoodCandidateOfNode(graph, 1);
  const std::string path = directory_.PathOf("costs.sqlite");
  CostDatabase database = CostDatabase::Open(path);
  {
    MeasuredCostEstimator first(registry_, Options(), &database);
    ASSERT_TRUE(first.Estimate(graph, candidate).IsKnown());
  }
  SqliteConnection::Open(path).Execute("UPDATE costs SET seconds = 10");
  MeasuredCostEstimator inflated(registry_, Options(), &database);
  EXPECT_EQ(inflated.Estimate(graph, candidate), Cost::Seconds(10.0));
  inflated.Confirm(graph, {candidate});
  const Cost confirmed = inflated.Estimate(graph, candidate);
  EXPECT_LT(confirmed, Cost::Seconds(1.0));
  MeasuredCostEstimator recalled(registry_, Options(), &database);
  EXPECT_EQ(recalled.Estimate(graph, candidate), confirmed);
  EXPECT_EQ(recalled.stats().measured, 0u);
}

// The CPU time other processes used is taken around every request to a running worker (here
// stand-in snapshots in which the machine gains 1 s per snapshot and the worker and tuner nothing).
TEST_F(MeasuredCostEstimatorTest, CpuTimeOfOtherProcessesIsTakenAroundTheWorkersRequests) {
  MeasuredCostOptions options = Options();
  auto snapshots = std::make_shared<int>(0);
  options.cpu_snapshot = [snapshots](pid_t worker) -> std::optional<CpuSnapshot> {
    EXPECT_GT(worker, 0);
    return CpuSnapshot{static_cast<double>(++*snapshots), 5, 5};
  };
  MeasuredCostEstimator tuner(registry_, options, nullptr);
  Partition(collage_testing::MakeSkip(), Specs({"good", "reference"}), tuner);
  ASSERT_GT(tuner.stats().measured, 2u);
  // Every request but the one that started the worker.
  EXPECT_EQ(static_cast<size_t>(*snapshots), 2 * (tuner.stats().measured - 1));
  EXPECT_DOUBLE_EQ(tuner.stats().other_processes_cpu_seconds, static_cast<double>(tuner.stats().measured - 1));
  EXPECT_GT(tuner.stats().worker_seconds, 0.0);
}

TEST(TuningStatsTest, TheSummaryWarnsWhenOtherProcessesKeptTheCoresBusy) {
  TuningStats stats;
  stats.measured = 30;
  stats.worker_seconds = 4;
  stats.other_processes_cpu_seconds = 3;
  EXPECT_NE(stats.ToString().find("; other processes kept 0.75 cores busy while candidates were timed"),
            std::string::npos)
      << stats.ToString();
  stats.other_processes_cpu_seconds = 0.5;  // 0.125 cores: daemons, not a load
  EXPECT_EQ(stats.ToString().find("other processes"), std::string::npos) << stats.ToString();
  stats.other_processes_cpu_seconds = -0.2;  // clock ticks counted on either side
  EXPECT_EQ(stats.OtherProcessesCores(), 0.0);
  stats.worker_seconds = 0.5;  // too short to judge by whole clock ticks
  stats.other_processes_cpu_seconds = 0.5;
  EXPECT_EQ(stats.ToString().find("other processes"), std::string::npos) << stats.ToString();
}

}  // namespace
}  // namespace collage
