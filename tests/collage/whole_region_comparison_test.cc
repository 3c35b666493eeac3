// The op-level placement against the region specs' whole regions (whole_region_comparison.h),
// on a chain of four ops that a library ("lib", 1 ms per op, single ops only) and a graph
// runtime ("graph") both run.
#include "collage/whole_region_comparison.h"

#include <gtest/gtest.h>

#include <set>

#include "graph_search_test_util.h"

namespace collage {
namespace {

using namespace collage_testing;

const std::vector<std::string> kOps = {"nn.relu", "tanh", "tanh", "nn.relu"};

// Graph-runtime partitions of several ops cost `multi_op_ms` until confirmed, then
// `confirmed_ms`: as a timing taken in a moment of contention, then again on a calm machine.
// A single graph-runtime op costs 1.5 ms, a library op 1 ms.
class ContendedEstimator final : public CostEstimator {
 public:
  ContendedEstimator(double multi_op_ms, double confirmed_ms) : multi_op_ms_(multi_op_ms), confirmed_ms_(confirmed_ms) {}

  Cost Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) override {
    const size_t ops = OpCount(graph, candidate);
    if (candidate.backend() == "lib") return ops == 1 ? Cost::Seconds(1e-3) : Cost::Invalid();
    if (candidate.backend() != kGraphRuntime) return Cost::Zero();
    if (ops == 1) return Cost::Seconds(1.5e-3);
    return Cost::Seconds((confirmed_.count(candidate.sub_graph().inside().ToVector()) ? confirmed_ms_ : multi_op_ms_) *
                         1e-3);
  }
  void Confirm(const DataflowGraph&, const std::vector<CandidatePartition>& candidates) override {
    ++confirm_calls_;
    for (const CandidatePartition& candidate : candidates) confirmed_.insert(candidate.sub_graph().inside().ToVector());
  }
  int confirm_calls() const { return confirm_calls_; }

 private:
  double multi_op_ms_;
  double confirmed_ms_;
  std::set<std::vector<size_t>> confirmed_;
  int confirm_calls_ = 0;
};

struct ChainPlacement {
  Function function = MakeOpChain(kOps);
  std::vector<PartitionSpec> specs = LibAndGraphSpecs({"nn.relu", "tanh"}, {"nn.relu", "tanh"});

  OpLevelPlacement Place(CostEstimator& estimator, std::vector<std::string> whole_region_specs) const {
    PartitionOptions options;
    options.whole_region_specs = std::move(whole_region_specs);
    return PlaceOpLevel(function, specs, estimator, options);
  }
};

std::set<std::string> Backends(const std::vector<CandidatePartition>& placement) {
  std::set<std::string> backends;
  for (const CandidatePartition& partition : placement) backends.insert(partition.backend());
  return backends;
}

// Before confirmation every graph-runtime partition of several ops looks slow (10 ms), so the
// search runs the chain on the library (4 ms). The whole graph region, one partition over the
// four ops, costs 2 ms once its timing is confirmed: it is the placement.
TEST(WholeRegionComparisonTest, AConfirmedCheaperWholeRegionReplacesTheSearchedPlacement) {
  ChainPlacement chain;
  ContendedEstimator estimator(/*multi_op_ms=*/10, /*confirmed_ms=*/2);
  const OpLevelPlacement placement = chain.Place(estimator, {kGraphRuntime});
  EXPECT_EQ(Backends(placement.search.chosen), std::set<std::string>{"lib"});
  ASSERT_TRUE(placement.whole_regions.has_value());
  const WholeRegionComparison& comparison = *placement.whole_regions;
  EXPECT_EQ(estimator.confirm_calls(), 1);
  EXPECT_EQ(comparison.searched_cost, Cost::Seconds(4e-3));
  ASSERT_EQ(comparison.alternatives.size(), 1u);
  EXPECT_EQ(comparison.alternatives[0].spec, kGraphRuntime);
  EXPECT_EQ(comparison.alternatives[0].cost, Cost::Seconds(2e-3));
  EXPECT_EQ(comparison.kept, std::optional<size_t>(0));
  ASSERT_EQ(placement.chosen.size(), 1u);
  EXPECT_EQ(placement.chosen[0].backend(), kGraphRuntime);
  EXPECT_EQ(OpCount(placement.graph, placement.chosen[0]), kOps.size());
  EXPECT_EQ(comparison.ToString(), "searched 4 ms, all graph 2 ms: all graph is kept");

  // The outlined result carries the comparison and prices the placement kept.
  NameSupply names;
  const PartitionResult result =
      OutlinePlacement(chain.function, placement, placement.chosen, estimator, PartitionOptions{}, names);
  ASSERT_TRUE(result.whole_regions.has_value());
  EXPECT_EQ(result.whole_regions->kept, std::optional<size_t>(0));
  EXPECT_EQ(result.total, Cost::Seconds(2e-3));
}

// A whole region within kWholeRegionPreference above the searched placement is preferred to it
// (the searched estimate adds up more partitions); one dearer than that is not.
TEST(WholeRegionComparisonTest, AWholeRegionWithinThePreferenceReplacesTheSearchedPlacement) {
  ChainPlacement chain;
  const double within_ms = 4 * (1 + kWholeRegionPreference / 2);
  ContendedEstimator within(/*multi_op_ms=*/10, within_ms);
  EXPECT_EQ(Backends(chain.Place(within, {kGraphRuntime}).chosen), std::set<std::string>{kGraphRuntime});
  const double beyond_ms = 4 * (1 + 2 * kWholeRegionPreference);
  ContendedEstimator beyond(/*multi_op_ms=*/10, beyond_ms);
  EXPECT_EQ(Backends(chain.Place(beyond, {kGraphRuntime}).chosen), std::set<std::string>{"lib"});
}

// The negative controls: a whole region that stays dearer once confirmed (5 ms against 4) does
// not replace the searched placement, and without whole-region specs nothing is compared.
TEST(WholeRegionComparisonTest, TheSearchedPlacementStaysUnlessAWholeRegionIsCheaper) {
  ChainPlacement chain;
  ContendedEstimator dearer(/*multi_op_ms=*/10, /*confirmed_ms=*/5);
  const OpLevelPlacement kept = chain.Place(dearer, {kGraphRuntime});
  ASSERT_TRUE(kept.whole_regions.has_value());
  EXPECT_FALSE(kept.whole_regions->kept.has_value());
  ASSERT_EQ(kept.whole_regions->alternatives.size(), 1u);
  EXPECT_EQ(kept.whole_regions->alternatives[0].cost, Cost::Seconds(5e-3));
  EXPECT_EQ(Backends(kept.chosen), std::set<std::string>{"lib"});
  EXPECT_EQ(kept.whole_regions->ToString(), "searched 4 ms, all graph 5 ms: the searched placement is kept");

  ContendedEstimator cheap(/*multi_op_ms=*/10, /*confirmed_ms=*/2);
  const OpLevelPlacement uncompared = chain.Place(cheap, {});
  EXPECT_FALSE(uncompared.whole_regions.has_value());
  EXPECT_EQ(cheap.confirm_calls(), 0);
  EXPECT_EQ(Backends(uncompared.chosen), std::set<std::string>{"lib"});
}

// When the search itself finds the whole region (its partitions cheap from the start), there is
// no other placement to compare with and nothing is timed again.
TEST(WholeRegionComparisonTest, ASearchedWholeRegionIsNotComparedWithItself) {
  ChainPlacement chain;
  ContendedEstimator estimator(/*multi_op_ms=*/2, /*confirmed_ms=*/2);
  const OpLevelPlacement placement = chain.Place(estimator, {kGraphRuntime});
  EXPECT_EQ(Backends(placement.chosen), std::set<std::string>{kGraphRuntime});
  ASSERT_TRUE(placement.whole_regions.has_value());
  EXPECT_TRUE(placement.whole_regions->alternatives.empty());
  EXPECT_EQ(estimator.confirm_calls(), 0);
  EXPECT_EQ(placement.whole_regions->ToString(), "searched 2 ms: the searched placement is kept");
}

}  // namespace
}  // namespace collage
