// PointerSet against std::unordered_set on random inserts and lookups, through several growths.
#include "support/pointer_set.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_set>

namespace collage {
namespace {

TEST(PointerSetTest, AgreesWithUnorderedSetOnRandomInsertsAndLookups) {
  std::vector<int> storage(5000);
  std::mt19937 random(3);
  PointerSet set;
  std::unordered_set<const void*> expected;
  size_t repeated_inserts = 0;
  for (int step = 0; step < 20000; ++step) {
    const void* pointer = &storage[random() % storage.size()];
    const bool inserted = expected.insert(pointer).second;
    repeated_inserts += !inserted;
    ASSERT_EQ(set.Insert(pointer), inserted) << "step " << step;
    ASSERT_EQ(set.size(), expected.size());
    const void* probe = &storage[random() % storage.size()];
    ASSERT_EQ(set.Contains(probe), expected.count(probe) > 0) << "step " << step;
  }
  EXPECT_GT(repeated_inserts, 0u);
  EXPECT_LT(expected.size(), storage.size());  // some lookups missed
  for (const int& element : storage) EXPECT_EQ(set.Contains(&element), expected.count(&element) > 0);
}

TEST(PointerSetTest, EmptySetContainsNothing) {
  int value = 0;
  PointerSet set;
  EXPECT_FALSE(set.Contains(&value));
  EXPECT_EQ(set.size(), 0u);
  EXPECT_TRUE(set.Insert(&value));
  EXPECT_FALSE(set.Insert(&value));
  EXPECT_TRUE(set.Contains(&value));
}

TEST(PointerSetTest, ReserveKeepsMembers) {
  std::vector<int> storage(100);
  PointerSet set;
  for (size_t i = 0; i < storage.size(); i += 2) set.Insert(&storage[i]);
  set.Reserve(100000);
  for (size_t i = 0; i < storage.size(); ++i) EXPECT_EQ(set.Contains(&storage[i]), i % 2 == 0) << i;
  EXPECT_EQ(set.size(), 50u);
}

}  // namespace
}  // namespace collage
