// The flat hash index against std::unordered_map on the same operations, with hashes that differ
// only in their low bits (as IndexSet's do) and with hashes that share a home slot.
#include "support/index_by_hash.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

namespace collage {
namespace {

TEST(IndexByHashTest, AnEmptyIndexFindsNothing) {
  IndexByHash index;
  EXPECT_EQ(index.Find(0), IndexByHash::kNone);
  EXPECT_EQ(index.Find(12345), IndexByHash::kNone);
}

TEST(IndexByHashTest, SetReplacesAndClearForgets) {
  IndexByHash index;
  index.Set(7, 1);
  index.Set(7, 2);
  EXPECT_EQ(index.Find(7), 2u);
  EXPECT_EQ(index.Find(8), IndexByHash::kNone);
  index.Clear();
  EXPECT_EQ(index.Find(7), IndexByHash::kNone);
  index.Set(7, 3);
  EXPECT_EQ(index.Find(7), 3u);
}

// Many entries through several growths: hashes 0..n-1 (low bits only), multiples of 2^40 (high
// bits only) and random ones, some set twice; every hash finds what the reference map holds.
TEST(IndexByHashTest, AgreesWithAMapThroughGrowth) {
  IndexByHash index;
  std::unordered_map<size_t, size_t> expected;
  std::mt19937_64 random(42);
  const auto set = [&](size_t hash, size_t value) {
    index.Set(hash, value);
    expected[hash] = value;
  };
  for (size_t i = 0; i < 5000; ++i) set(i, i);
  for (size_t i = 0; i < 5000; ++i) set(i << 40, 2 * i);
  for (size_t i = 0; i < 5000; ++i) set(random(), 3 * i);
  for (size_t i = 0; i < 5000; i += 3) set(i, 7 * i);
  for (const auto& [hash, value] : expected) ASSERT_EQ(index.Find(hash), value) << "hash " << hash;
  for (size_t i = 0; i < 1000; ++i) {
    const size_t absent = random();
    if (!expected.count(absent)) {
      EXPECT_EQ(index.Find(absent), IndexByHash::kNone);
    }
  }
  EXPECT_EQ(index.Find(5000), IndexByHash::kNone);
}

}  // namespace
}  // namespace collage
