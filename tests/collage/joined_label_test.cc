#include "collage/joined_label.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace collage {
namespace {

TEST(JoinedLabelTest, SpellsLeavesAndJoins) {
  EXPECT_EQ(JoinedLabel().ToString(), "");
  EXPECT_TRUE(JoinedLabel().empty());
  EXPECT_TRUE(JoinedLabel(std::string()).empty());
  EXPECT_EQ(JoinedLabel(std::string("nn.relu")).ToString(), "nn.relu");
  const JoinedLabel pair = JoinedLabel::Join(std::string("a"), std::string("b"));
  EXPECT_EQ(pair.ToString(), "a+b");
  EXPECT_FALSE(pair.empty());
  // Empty sides keep their separator, as string concatenation would.
  EXPECT_EQ(JoinedLabel::Join(JoinedLabel(), JoinedLabel()).ToString(), "+");
  EXPECT_EQ(JoinedLabel::Join(JoinedLabel(), pair).ToString(), "+a+b");
  EXPECT_EQ(JoinedLabel::Join(pair, JoinedLabel::Join(pair, std::string("c"))).ToString(), "a+b+a+b+c");
}

// Random join trees spell exactly what joining their strings with '+' gives.
TEST(JoinedLabelTest, RandomJoinsAgreeWithStringConcatenation) {
  std::mt19937 random(7);
  std::vector<std::pair<JoinedLabel, std::string>> labels;
  const std::vector<std::string> leaves = {"", "nn.relu", "tanh", "onednn.conv2d_bias_relu"};
  for (const std::string& leaf : leaves) labels.emplace_back(JoinedLabel(leaf), leaf);
  for (int i = 0; i < 400; ++i) {
    const auto& first = labels[random() % labels.size()];
    const auto& second = labels[random() % labels.size()];
    auto joined = std::make_pair(JoinedLabel::Join(first.first, second.first), first.second + "+" + second.second);
    labels.push_back(std::move(joined));
    ASSERT_EQ(labels.back().first.ToString(), labels.back().second) << i;
  }
}

// A join chain far deeper than any stack allows to recurse still spells out.
TEST(JoinedLabelTest, DeepJoinsNeedNoRecursion) {
  JoinedLabel label(std::string("x"));
  for (int i = 0; i < 200000; ++i) label = JoinedLabel::Join(label, std::string("y"));
  const std::string text = label.ToString();
  EXPECT_EQ(text.size(), 1 + 2 * 200000u);
  EXPECT_EQ(text.substr(0, 5), "x+y+y");
}

// Releasing a label frees what it alone holds and leaves shared sides intact, also in a balanced
// tree whose every join loses both sides at once (run under the sanitizers, a use after free or
// a leak fails here).
TEST(JoinedLabelTest, ReleasingKeepsSharedSidesAndFreesTheRest) {
  JoinedLabel kept;
  {
    const JoinedLabel left = JoinedLabel::Join(std::string("a"), std::string("b"));
    const JoinedLabel joined = JoinedLabel::Join(left, std::string("c"));
    kept = left;
    JoinedLabel copy = joined;
    copy = JoinedLabel();
    EXPECT_EQ(joined.ToString(), "a+b+c");
  }
  EXPECT_EQ(kept.ToString(), "a+b");

  std::vector<JoinedLabel> level(1 << 12, JoinedLabel(std::string("x")));
  while (level.size() > 1) {
    std::vector<JoinedLabel> next;
    for (size_t i = 0; i < level.size(); i += 2) next.push_back(JoinedLabel::Join(level[i], level[i + 1]));
    level = std::move(next);
  }
  const JoinedLabel tree = level.front();
  level.clear();
  EXPECT_EQ(tree.ToString().size(), 2 * (1u << 12) - 1);
}

}  // namespace
}  // namespace collage
