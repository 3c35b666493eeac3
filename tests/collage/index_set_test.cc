#include "collage/index_set.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace collage {
namespace {

TEST(IndexSetTest, SetOperations) {
  const IndexSet a(70, {1, 3, 65});
  const IndexSet b(70, {3, 4, 69});
  EXPECT_EQ((a | b).ToString(), "{1, 3, 4, 65, 69}");
  EXPECT_EQ((a & b).ToString(), "{3}");
  EXPECT_EQ((a - b).ToString(), "{1, 65}");
  EXPECT_TRUE(a.Intersects(b));
  EXPECT_FALSE(a.AreDisjoint(b));
  EXPECT_TRUE(IndexSet(70, {1, 65}).AreDisjoint(IndexSet(70, {2, 66})));
  EXPECT_TRUE(IndexSet(70, {1, 65}).IsSubsetOf(a));
  EXPECT_FALSE(b.IsSubsetOf(a));
  EXPECT_EQ(a.Count(), 3u);
  EXPECT_TRUE(IndexSet(70).IsEmpty());
}

TEST(IndexSetTest, FirstInsideAndOutsideCrossWordBoundaries) {
  IndexSet set(130);
  for (size_t i = 0; i < 128; ++i) set.Add(i);
  EXPECT_EQ(set.FirstOutside(), 128u);
  EXPECT_EQ(set.FirstInside(5), 5u);
  set.Add(128);
  set.Add(129);
  EXPECT_TRUE(set.IsFull());
  EXPECT_FALSE(set.FirstOutside().has_value());
  set.Remove(64);
  EXPECT_EQ(set.FirstOutside(), 64u);
  EXPECT_EQ(IndexSet(130, {100}).FirstInside(), 100u);
  EXPECT_EQ(IndexSet(130, {100}).FirstInside(101), std::nullopt);
  // Bits past the size in the last word never count as outside.
  IndexSet full(3, {0, 1, 2});
  EXPECT_FALSE(full.FirstOutside().has_value());
}

TEST(IndexSetTest, EqualityAndHashing) {
  const IndexSet a(10, {2, 7});
  IndexSet b(10);
  b.Add(7);
  b.Add(2);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.Hash(), b.Hash());
  EXPECT_FALSE(a == IndexSet(11, {2, 7}));
  b.Remove(2);
  EXPECT_FALSE(a == b);
  EXPECT_EQ(b.ToVector(), std::vector<size_t>({7}));
}

TEST(IndexSetTest, MismatchedSizesAndOutOfRangeAreErrors) {
  EXPECT_THROW(IndexSet(3, {1}) | IndexSet(4, {1}), Error);
  EXPECT_THROW(IndexSet(3, {3}), Error);
}

}  // namespace
}  // namespace collage
