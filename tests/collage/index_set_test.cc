#include "collage/index_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

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

// The sets of the randomized test are checked against plain vectors of booleans.
using Model = std::vector<bool>;

// A random set shaped like the partitioner's: a prefix, a local cluster, scattered bits, or a
// mix; sizes around multiples of 64.
Model RandomModel(std::mt19937_64& random, size_t size) {
  Model model(size, false);
  std::uniform_int_distribution<size_t> position(0, size - 1);
  const int shape = static_cast<int>(random() % 4);
  if (shape == 0 || shape == 3) {
    const size_t prefix = position(random);
    for (size_t i = 0; i < prefix; ++i) model[i] = true;
  }
  if (shape == 1 || shape == 3) {
    const size_t start = position(random);
    for (size_t i = start; i < std::min(size, start + 1 + random() % 150); ++i) model[i] = random() % 3 != 0;
  }
  if (shape == 2 || shape == 3) {
    for (int k = 0; k < 5; ++k) model[position(random)] = true;
  }
  return model;
}

IndexSet FromModel(const Model& model, bool reverse_order) {
  std::vector<size_t> indices;
  for (size_t i = 0; i < model.size(); ++i) {
    if (model[i]) indices.push_back(i);
  }
  if (reverse_order) std::reverse(indices.begin(), indices.end());
  return IndexSet(model.size(), indices);
}

void ExpectSameSet(const IndexSet& set, const Model& model, const std::string& what) {
  ASSERT_EQ(set.size(), model.size()) << what;
  for (size_t i = 0; i < model.size(); ++i) ASSERT_EQ(set[i], model[i]) << what << " at " << i;
  // The representation is canonical: however it was built, an equal set compares and hashes equal.
  const IndexSet rebuilt = FromModel(model, true);
  ASSERT_TRUE(set == rebuilt) << what << ": " << set.ToString();
  ASSERT_EQ(set.Hash(), rebuilt.Hash()) << what;
  ASSERT_EQ(set.Count(), static_cast<size_t>(std::count(model.begin(), model.end(), true))) << what;
  ASSERT_EQ(set.IsEmpty(), set.Count() == 0) << what;
  std::vector<size_t> listed, visited;
  for (size_t i = 0; i < model.size(); ++i) {
    if (model[i]) listed.push_back(i);
  }
  set.ForEach([&](size_t index) { visited.push_back(index); });
  ASSERT_EQ(visited, listed) << what;
  ASSERT_EQ(set.ToVector(), listed) << what;
  ASSERT_EQ(set.LastInside(), listed.empty() ? std::nullopt : std::optional<size_t>(listed.back())) << what;
}

TEST(IndexSetTest, RandomSetsBehaveLikeVectorsOfBooleans) {
  std::mt19937_64 random(42);
  for (int round = 0; round < 400; ++round) {
    const size_t size = std::vector<size_t>{1, 63, 64, 65, 128, 200, 640, 1000}[random() % 8];
    const Model a = RandomModel(random, size), b = RandomModel(random, size);
    const IndexSet set_a = FromModel(a, false), set_b = FromModel(b, round % 2 == 0);
    ExpectSameSet(set_a, a, "a");
    Model union_model(size), intersection(size), difference(size);
    bool disjoint = true, subset = true;
    for (size_t i = 0; i < size; ++i) {
      union_model[i] = a[i] || b[i];
      intersection[i] = a[i] && b[i];
      difference[i] = a[i] && !b[i];
      disjoint = disjoint && !(a[i] && b[i]);
      subset = subset && (!a[i] || b[i]);
    }
    ExpectSameSet(set_a | set_b, union_model, "a | b");
    ExpectSameSet(set_a & set_b, intersection, "a & b");
    ExpectSameSet(set_a - set_b, difference, "a - b");
    IndexSet accumulated = set_a;
    accumulated |= set_b;
    ExpectSameSet(accumulated, union_model, "a |= b");
    EXPECT_EQ(set_a.AreDisjoint(set_b), disjoint);
    EXPECT_EQ(set_a.IsSubsetOf(set_b), subset);
    EXPECT_TRUE((set_a & set_b).IsSubsetOf(set_a));
    for (int probe = 0; probe < 8; ++probe) {
      const size_t from = random() % (size + 2);
      std::optional<size_t> inside, outside;
      for (size_t i = from; i < size; ++i) {
        if (!inside && a[i]) inside = i;
        if (!outside && !a[i]) outside = i;
      }
      EXPECT_EQ(set_a.FirstInside(from), inside) << "from " << from;
      EXPECT_EQ(set_a.FirstOutside(from), outside) << "from " << from;
    }
    // Removing and re-adding one index, inside a full prefix or not.
    const size_t index = random() % size;
    IndexSet changed = set_a;
    Model changed_model = a;
    changed.Remove(index);
    changed_model[index] = false;
    ExpectSameSet(changed, changed_model, "remove");
    changed.Add(index);
    changed_model[index] = true;
    ExpectSameSet(changed, changed_model, "add");
  }
}

TEST(IndexSetTest, FullSetsOfEverySize) {
  for (size_t size : {1, 63, 64, 65, 128, 129}) {
    const IndexSet full = IndexSet::Full(size);
    EXPECT_EQ(full.Count(), size);
    EXPECT_FALSE(full.FirstOutside().has_value());
    EXPECT_TRUE(full.IsFull());
    EXPECT_TRUE(full == FromModel(Model(size, true), false));
    EXPECT_TRUE((full - full).IsEmpty());
  }
}

TEST(IndexSetTest, PrefixesOfEveryLength) {
  for (size_t size : {1, 63, 64, 65, 128, 129}) {
    for (size_t count = 0; count <= size; ++count) {
      Model model(size, false);
      std::fill(model.begin(), model.begin() + static_cast<std::ptrdiff_t>(count), true);
      ExpectSameSet(IndexSet::Prefix(size, count), model, "prefix " + std::to_string(count));
    }
  }
  EXPECT_THROW(IndexSet::Prefix(10, 11), Error);
}

}  // namespace
}  // namespace collage
