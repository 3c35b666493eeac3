#include "tuning/interleaved_benchmark.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "parser/parser.h"
#include "runtime/greedy_placement.h"
#include "testing/subset_backend.h"

namespace collage {
namespace {

class InterleavedBenchmarkTest : public ::testing::Test {
 protected:
  InterleavedBenchmarkTest() {
    registry_.Register(unary_);
    registry_.Register(fallback_);
  }

  Module Place(const std::vector<std::string>& backends) const { return PlaceGreedy(model_, backends, registry_); }

  const std::shared_ptr<testing::SubsetBackend> unary_ =
      std::make_shared<testing::SubsetBackend>("unary", std::set<std::string>{"nn.relu", "tanh"});
  const std::shared_ptr<testing::SubsetBackend> fallback_ = std::make_shared<testing::SubsetBackend>(
      "fallback", std::set<std::string>{}, std::vector<BackendPattern>{}, /*runs_every_op=*/true,
      BackendKind::kCodeGenerator);
  BackendRegistry registry_;
  const Module model_ = ParseModule(R"(
def @main(%x: Tensor[(8, 8), f32]) {
  %0 = add(%x, %x) : Tensor[(8, 8), f32]
  %1 = nn.relu(%0) : Tensor[(8, 8), f32]
  multiply(%1, %x)
}
)");
};

// Over a full cycle of rounds each variant runs right after every other one equally often, and
// every round runs each variant once.
TEST(InterleavedOrderTest, EveryVariantFollowsEveryOtherEquallyOften) {
  for (size_t variants = 1; variants <= 9; ++variants) {
    const size_t cycle = variants % 2 == 0 ? variants : 2 * variants;
    std::vector<std::vector<int>> follows(variants, std::vector<int>(variants, 0));
    for (size_t round = 0; round < cycle; ++round) {
      std::vector<size_t> order = InterleavedOrder(variants, round);
      for (size_t j = 1; j < order.size(); ++j) ++follows[order[j - 1]][order[j]];
      std::sort(order.begin(), order.end());
      for (size_t v = 0; v < variants; ++v) ASSERT_EQ(order[v], v) << variants << " variants, round " << round;
    }
    for (size_t before = 0; before < variants; ++before) {
      for (size_t after = 0; after < variants; ++after) {
        if (before == after) continue;
        EXPECT_EQ(follows[before][after], variants % 2 == 0 ? 1 : 2)
            << variants << " variants: " << after << " after " << before;
      }
    }
  }
  // Negative control: the merely rotated order (round r starts at r) always runs 1 after 0.
  int one_after_zero = 0;
  for (size_t round = 0; round < 4; ++round) {
    std::vector<size_t> rotated(4);
    for (size_t j = 0; j < 4; ++j) rotated[j] = (j + round) % 4;
    for (size_t j = 1; j < 4; ++j) one_after_zero += rotated[j - 1] == 0 && rotated[j] == 1;
  }
  EXPECT_EQ(one_after_zero, 3);
}

TEST_F(InterleavedBenchmarkTest, EveryVariantGetsOneSamplePerRound) {
  BenchmarkOptions options;
  options.rounds = 4;
  const std::vector<VariantLatency> latencies =
      BenchmarkInterleaved({{"mixed", Place({"unary"})}, {"fallback only", Place({})}}, registry_, options);
  ASSERT_EQ(latencies.size(), 2u);
  for (const VariantLatency& latency : latencies) {
    EXPECT_EQ(latency.samples.size(), 4u) << latency.name;
    EXPECT_TRUE(latency.same_as.empty()) << latency.name;
    EXPECT_GT(latency.milliseconds.median, 0.0) << latency.name;
  }
  EXPECT_EQ(latencies[0].name, "mixed");
  EXPECT_EQ(latencies[1].name, "fallback only");
}

TEST_F(InterleavedBenchmarkTest, VariantsWithEqualModulesAreCompiledAndTimedOnce) {
  BenchmarkOptions options;
  options.rounds = 5;
  const size_t unary_compiled_before = unary_->compiled();
  const std::vector<VariantLatency> latencies = BenchmarkInterleaved(
      {{"mixed", Place({"unary"})}, {"fallback only", Place({})}, {"mixed again", Place({"unary"})}}, registry_,
      options);
  ASSERT_EQ(latencies.size(), 3u);
  EXPECT_EQ(unary_->compiled() - unary_compiled_before, 1u);
  EXPECT_EQ(latencies[2].same_as, "mixed");
  EXPECT_EQ(latencies[2].samples, latencies[0].samples);
  EXPECT_EQ(latencies[2].milliseconds.median, latencies[0].milliseconds.median);
  EXPECT_TRUE(latencies[1].same_as.empty());
  EXPECT_EQ(latencies[1].samples.size(), 5u);
}

// Rounds whose probes say the machine was busy are taken again, so every variant still gets
// one sample per kept round; without a probe nothing is retaken (the negative control).
TEST_F(InterleavedBenchmarkTest, RoundsTakenOnABusyMachineAreTakenAgain) {
  BenchmarkOptions options;
  options.rounds = 4;
  options.busy_wait_seconds = 0;
  // Three baseline probes, then two per round: the second round's probes (calls 6 and 7) are busy.
  options.speed_probe = [calls = std::make_shared<int>(0)](int) {
    ++*calls;
    return *calls == 6 || *calls == 7 ? 1e-2 : 1e-3;
  };
  std::vector<VariantLatency> latencies =
      BenchmarkInterleaved({{"mixed", Place({"unary"})}, {"fallback only", Place({})}}, registry_, options);
  for (const VariantLatency& latency : latencies) {
    EXPECT_EQ(latency.samples.size(), 4u) << latency.name;
    EXPECT_EQ(latency.retaken_rounds, 1) << latency.name;
  }
  options.speed_probe = [](int) { return 1e-2; };
  latencies = BenchmarkInterleaved({{"mixed", Place({"unary"})}}, registry_, options);
  EXPECT_EQ(latencies[0].retaken_rounds, 0) << "a machine as slow as always is not busy";
  options.speed_probe = nullptr;
  latencies = BenchmarkInterleaved({{"mixed", Place({"unary"})}}, registry_, options);
  EXPECT_EQ(latencies[0].retaken_rounds, 0);
  EXPECT_EQ(latencies[0].samples.size(), 4u);
  // Always busy after the baseline: at most max_retaken_rounds are retaken, then rounds are kept.
  options.max_retaken_rounds = 2;
  options.speed_probe = [calls = std::make_shared<int>(0)](int) { return ++*calls <= 3 ? 1e-3 : 1e-2; };
  latencies = BenchmarkInterleaved({{"mixed", Place({"unary"})}}, registry_, options);
  EXPECT_EQ(latencies[0].retaken_rounds, 2);
  EXPECT_EQ(latencies[0].samples.size(), 4u);
}

// The same placement once with the relu wrapped in a Composite function: timed once when the
// backend reads Composites as labels only, as two placements otherwise.
TEST_F(InterleavedBenchmarkTest, CompositeWrappingIsTheSamePlacementWhenItIsOnlyALabel) {
  const auto placement = [](bool wrapped) {
    const std::string relu =
        wrapped ? "%w = fn (%v: Tensor[(8, 8), f32]) attrs(Composite=\"unary.relu\") { nn.relu(%v) }\n    %w(%q)"
                : "nn.relu(%q)";
    return ParseModule(R"(
def @main(%x: Tensor[(8, 8), f32]) {
  %0 = fn (%p: Tensor[(8, 8), f32]) attrs(Compiler="fallback", Primitive=1, global_symbol="fallback_0") { add(%p, %p) }
  %1 = fn (%q: Tensor[(8, 8), f32]) attrs(Compiler="unary", Primitive=1, global_symbol="unary_1") {
    )" + relu + R"(
  }
  %2 = fn (%r: Tensor[(8, 8), f32], %s: Tensor[(8, 8), f32])
      attrs(Compiler="fallback", Primitive=1, global_symbol="fallback_2") {
    multiply(%r, %s)
  }
  %2(%1(%0(%x)), %x)
}
)");
  };
  BenchmarkOptions options;
  options.rounds = 2;
  for (bool labels_only : {false, true}) {
    unary_->set_composites_are_only_labels(labels_only);
    const std::vector<VariantLatency> latencies =
        BenchmarkInterleaved({{"plain", placement(false)}, {"wrapped", placement(true)}}, registry_, options);
    EXPECT_EQ(latencies[1].same_as, labels_only ? "plain" : "") << labels_only;
  }
}

}  // namespace
}  // namespace collage
