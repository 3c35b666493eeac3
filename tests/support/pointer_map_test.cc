// PointerMap against std::unordered_map on random inserts, updates and lookups, through several
// growths, with values that own memory (so moves on growth are checked too).
#include "support/pointer_map.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace collage {
namespace {

TEST(PointerMapTest, AgreesWithUnorderedMapOnRandomInsertsUpdatesAndLookups) {
  std::vector<int> storage(5000);
  std::mt19937 random(5);
  PointerMap<std::string> map;
  std::unordered_map<const void*, std::string> expected;
  size_t repeated_inserts = 0;
  for (int step = 0; step < 20000; ++step) {
    const void* key = &storage[random() % storage.size()];
    const std::string value = std::to_string(step);
    if (step % 3 == 0) {
      map[key] += value;
      expected[key] += value;
    } else {
      const bool inserted = expected.emplace(key, value).second;
      repeated_inserts += !inserted;
      ASSERT_EQ(map.Insert(key, value), inserted) << "step " << step;
    }
    ASSERT_EQ(map.size(), expected.size());
    const void* probe = &storage[random() % storage.size()];
    const auto it = expected.find(probe);
    const std::string* found = map.Find(probe);
    ASSERT_EQ(found != nullptr, it != expected.end()) << "step " << step;
    if (found != nullptr) {
      ASSERT_EQ(*found, it->second) << "step " << step;
    }
  }
  EXPECT_GT(repeated_inserts, 0u);
  EXPECT_LT(expected.size(), storage.size());  // some lookups missed
  for (const auto& [key, value] : expected) EXPECT_EQ(map.At(key), value);
}

TEST(PointerMapTest, ReserveKeepsEntriesAndEmptyMapFindsNothing) {
  int first = 0;
  int second = 0;
  PointerMap<std::unique_ptr<int>> map;
  EXPECT_EQ(map.Find(&first), nullptr);
  EXPECT_FALSE(map.Contains(&first));
  EXPECT_TRUE(map.Insert(&first, std::make_unique<int>(7)));
  EXPECT_FALSE(map.Insert(&first, std::make_unique<int>(8)));
  map.Reserve(100000);
  EXPECT_EQ(*map.At(&first), 7);
  EXPECT_FALSE(map.Contains(&second));
  EXPECT_EQ(map[&second], nullptr);  // value-initialized on first access
  EXPECT_EQ(map.size(), 2u);
}

}  // namespace
}  // namespace collage
