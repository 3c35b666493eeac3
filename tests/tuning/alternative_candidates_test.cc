// Alternatives over the same operators: timed fastest-looking first, and a later one dominated
// above kDominanceFactor times the fastest measured alternative.
#include "tuning/alternative_candidates.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

IndexSet Operators(std::vector<size_t> indices) { return IndexSet(8, indices); }

TEST(AlternativeCandidatesTest, EachGroupsFastestLookingJobIsTimedFirst) {
  AlternativeCandidates alternatives;
  alternatives.AddJob(Operators({0}), 0, 1e8);  // slow backend, first in the candidate list
  alternatives.AddJob(Operators({0}), 1, 1e11);
  alternatives.AddJob(Operators({1, 2}), 2, 1e8);
  alternatives.AddJob(Operators({1, 2}), 3, 1e10);
  alternatives.AddJob(Operators({1, 2}), 4, 1e11);
  // Job 5 is in no group: it keeps its place among the first.
  EXPECT_EQ(alternatives.TimingOrder(6), (std::vector<size_t>{1, 4, 5, 0, 3, 2}));
}

// A job standing for several places takes its best rank over its groups.
TEST(AlternativeCandidatesTest, AJobInSeveralGroupsTakesItsBestRank) {
  AlternativeCandidates alternatives;
  alternatives.AddJob(Operators({0}), 0, 1e11);
  alternatives.AddJob(Operators({0}), 1, 1e8);
  alternatives.AddJob(Operators({3}), 1, 1e8);  // the only job over {3}
  EXPECT_EQ(alternatives.TimingOrder(2), (std::vector<size_t>{0, 1}));
  alternatives.AddJob(Operators({4}), 2, 1e8);
  alternatives.AddJob(Operators({4}), 3, 1e11);
  EXPECT_EQ(alternatives.TimingOrder(4), (std::vector<size_t>{0, 1, 3, 2}));
}

TEST(AlternativeCandidatesTest, TheThresholdFollowsTheFastestMeasuredAlternative) {
  AlternativeCandidates alternatives;
  alternatives.AddJob(Operators({0}), 0, 1e11);
  alternatives.AddJob(Operators({0}), 1, 1e10);
  alternatives.AddJob(Operators({0}), 2, 1e8);
  alternatives.AddJob(Operators({5}), 3, 1e8);
  std::vector<Cost> costs(4, Cost::Unknown());
  EXPECT_EQ(alternatives.DominanceThreshold(2, costs), 0);  // nothing measured yet
  costs[0] = Cost::Invalid();                                // a failed alternative tells nothing
  EXPECT_EQ(alternatives.DominanceThreshold(2, costs), 0);
  costs[1] = Cost::Seconds(0.05);
  EXPECT_DOUBLE_EQ(alternatives.DominanceThreshold(2, costs), AlternativeCandidates::kDominanceFactor * 0.05);
  costs[2] = Cost::Seconds(0.001);  // its own cost is no alternative to itself
  EXPECT_DOUBLE_EQ(alternatives.DominanceThreshold(2, costs), AlternativeCandidates::kDominanceFactor * 0.05);
  // Job 1 now has a far faster alternative, but a threshold is never below the floor.
  EXPECT_DOUBLE_EQ(alternatives.DominanceThreshold(1, costs), AlternativeCandidates::kMinimumDominatedSeconds);
  EXPECT_EQ(alternatives.DominanceThreshold(3, costs), 0);  // other operators
}

TEST(AlternativeCandidatesTest, KnownCostsOfEarlierSearchesAreAlternativesToo) {
  AlternativeCandidates alternatives;
  alternatives.AddKnownCost(Operators({2}), Cost::Seconds(0.2));
  alternatives.AddKnownCost(Operators({2}), Cost::Invalid());
  alternatives.AddJob(Operators({2}), 0, 1e8);
  const std::vector<Cost> costs(1, Cost::Unknown());
  EXPECT_DOUBLE_EQ(alternatives.DominanceThreshold(0, costs), AlternativeCandidates::kDominanceFactor * 0.2);
}

}  // namespace
}  // namespace collage
