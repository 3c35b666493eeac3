#include "runtime/memory_planner.h"

#include <gtest/gtest.h>

#include <random>

#include "support/error.h"

namespace collage {
namespace {

// A chain a -> b -> c -> d, each step reading the previous tensor; in 64-byte units:
// a = 2 units live in steps 0-1, b = 1 in 1-2, c = 2 (100 bytes rounded up) in 2-3, d = 1 in
// 3-4. Neighbours are live together (3 units each time); a and c can share.
TEST(MemoryPlannerTest, ChainReusesBuffersAndHitsTheLiveBound) {
  const std::vector<BufferLifetime> buffers = {{128, 0, 1}, {64, 1, 2}, {100, 2, 3}, {1, 3, 4}};
  const MemoryPlan plan = PlanMemory(buffers);
  EXPECT_EQ(plan.total_bytes, 6u * 64);
  EXPECT_EQ(plan.live_bytes_bound, 3u * 64);
  EXPECT_EQ(plan.arena_bytes, 3u * 64);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);  // a and c are never live together
  EXPECT_EQ(FindLiveOverlap(buffers, plan), "");
}

TEST(MemoryPlannerTest, BuffersLiveTogetherNeverShareBytes) {
  const std::vector<BufferLifetime> buffers = {{64, 0, 5}, {64, 0, 5}, {0, 2, 2}};
  const MemoryPlan plan = PlanMemory(buffers);
  EXPECT_EQ(plan.arena_bytes, 3u * 64);  // the zero-byte buffer still gets its own unit
  EXPECT_EQ(FindLiveOverlap(buffers, plan), "");
}

TEST(MemoryPlannerTest, OverlapCheckFindsAliasedLiveBuffers) {
  const std::vector<BufferLifetime> buffers = {{64, 0, 2}, {64, 1, 3}};
  MemoryPlan plan;
  plan.offsets = {0, 0};
  EXPECT_EQ(FindLiveOverlap(buffers, plan), "buffers 0 and 1 are live together and share bytes");
}

TEST(MemoryPlannerTest, RandomLifetimesNeverAliasLiveBuffers) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 500; ++trial) {
    const size_t count = 1 + random() % 40;
    const size_t steps = 1 + random() % 30;
    std::vector<BufferLifetime> buffers;
    for (size_t i = 0; i < count; ++i) {
      const size_t first = random() % steps;
      const size_t last = first + random() % (steps - first);
      buffers.push_back({static_cast<size_t>(random() % 5000), first, last});
    }
    const MemoryPlan plan = PlanMemory(buffers);
    ASSERT_EQ(FindLiveOverlap(buffers, plan), "") << "trial " << trial;
    EXPECT_GE(plan.arena_bytes, plan.live_bytes_bound);
    EXPECT_LE(plan.arena_bytes, plan.total_bytes);
    for (size_t i = 0; i < count; ++i) {
      EXPECT_EQ(plan.offsets[i] % 64, 0u);
      EXPECT_LE(plan.offsets[i] + buffers[i].bytes, plan.arena_bytes);
    }
  }
}

TEST(MemoryPlannerTest, RejectsAnInvertedLifetime) { EXPECT_THROW(PlanMemory({{64, 3, 2}}), Error); }

}  // namespace
}  // namespace collage
