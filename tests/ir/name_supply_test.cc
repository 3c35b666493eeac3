#include "ir/name_supply.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

TEST(NameSupplyTest, OneCounterForEveryPrefix) {
  NameSupply names;
  EXPECT_EQ(names.Fresh("onednn"), "onednn_0");
  EXPECT_EQ(names.Fresh("native"), "native_1");
  EXPECT_EQ(names.Fresh("onednn"), "onednn_2");
  EXPECT_EQ(names.handed_out(), 3u);
}

TEST(NameSupplyTest, CopiesNameAlternativesFromTheSameStartAndTheOriginalContinuesPastThem) {
  NameSupply names;
  names.Fresh("a");
  NameSupply first = names;
  NameSupply second = names;
  EXPECT_EQ(first.Fresh("x"), "x_1");
  EXPECT_EQ(second.Fresh("y"), "y_1");
  EXPECT_EQ(second.Fresh("y"), "y_2");
  names.AdvancePast(second);
  names.AdvancePast(first);
  EXPECT_EQ(names.Fresh("a"), "a_3");
}

}  // namespace
}  // namespace collage
