#include "support/csv.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace collage {
namespace {

TEST(CsvTest, FieldsAreQuotedOnlyWhenTheyMustBe) {
  EXPECT_EQ(CsvField("plain text"), "plain text");
  EXPECT_EQ(CsvField(""), "");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

TEST(CsvTest, NumbersReadBackExactly) {
  for (double value : {0.0, 1.0, 0.1, 1.25e-4, 1e-300, 1700000000.123456, -2.5}) {
    const std::string text = CsvNumber(value);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
  }
  EXPECT_EQ(CsvNumber(0.5), "0.5");
  EXPECT_EQ(CsvNumber(37), "37");
}

}  // namespace
}  // namespace collage
