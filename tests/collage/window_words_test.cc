// WindowWords keeps up to two words in place and more on the heap; copies, moves, trims and
// comparisons behave like a vector's across the two representations.
#include <gtest/gtest.h>

#include <vector>

#include "collage/window_words.h"

namespace collage {
namespace {

std::vector<uint64_t> Values(const WindowWords& words) { return words.ToVector(); }

TEST(WindowWordsTest, ShortWindowsStayInPlaceAndLongOnesGoToTheHeap) {
  const WindowWords two(std::vector<uint64_t>{1, 2});
  EXPECT_EQ(two.capacity(), 0u);
  const WindowWords five(std::vector<uint64_t>{1, 2, 3, 4, 5});
  EXPECT_EQ(five.capacity(), 5u);
  EXPECT_EQ(Values(WindowWords(3)), (std::vector<uint64_t>{0, 0, 0}));
}

TEST(WindowWordsTest, CopiesAndMovesKeepTheWordsInBothRepresentations) {
  for (const std::vector<uint64_t>& values : {std::vector<uint64_t>{7}, std::vector<uint64_t>{1, 2, 3, 4}}) {
    WindowWords original(values);
    WindowWords copy = original;
    EXPECT_EQ(Values(copy), values);
    copy[0] = 99;
    EXPECT_EQ(Values(original), values) << "a copy shares nothing";
    WindowWords moved = std::move(copy);
    EXPECT_EQ(moved[0], 99u);
    WindowWords assigned(std::vector<uint64_t>{5, 6, 7});
    assigned = original;
    EXPECT_EQ(Values(assigned), values);
    assigned = std::move(moved);
    EXPECT_EQ(assigned[0], 99u);
    EXPECT_EQ(assigned.size(), values.size());
  }
}

TEST(WindowWordsTest, TrimKeepsTheMiddleAndEqualityComparesWordsOnly) {
  WindowWords words(std::vector<uint64_t>{0, 8, 9, 0});
  words.Trim(1, 3);
  EXPECT_EQ(Values(words), (std::vector<uint64_t>{8, 9}));
  EXPECT_EQ(words, WindowWords(std::vector<uint64_t>{8, 9}));  // heap-held and in-place alike
  EXPECT_FALSE(words == WindowWords(std::vector<uint64_t>{8}));
  EXPECT_FALSE(words == WindowWords(std::vector<uint64_t>{8, 10}));
}

}  // namespace
}  // namespace collage
