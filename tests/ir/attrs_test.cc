#include "ir/attrs.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/error.h"

namespace collage {
namespace {

TEST(AttrsTest, ValuesPrintInTextFormatSpelling) {
  EXPECT_EQ(AttrValueToString(int64_t{3}), "3");
  EXPECT_EQ(AttrValueToString(2.0), "2.0");
  EXPECT_EQ(AttrValueToString(1e-05), "1e-05");
  EXPECT_EQ(AttrValueToString(std::string("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(AttrValueToString(std::string("line\nnext\t")), "\"line\\nnext\\t\"");
  EXPECT_EQ(AttrValueToString(std::vector<int64_t>{1, -2}), "[1, -2]");
  EXPECT_EQ(AttrValueToString(std::vector<double>{0.5, 3.0}), "[0.5, 3.0]");
  EXPECT_EQ(AttrValueToString(std::numeric_limits<double>::infinity()), "inf");
}

TEST(AttrsTest, FloatsPrintWithEnoughDigitsToRoundTrip) {
  const double value = 0.1 + 0.2;
  EXPECT_EQ(std::stod(AttrValueToString(value)), value);
}

TEST(AttrsTest, TypedGettersCheckKinds) {
  Attrs attrs{{"axis", int64_t{1}}, {"alpha", 0.5}, {"strides", std::vector<int64_t>{2, 2}}};
  EXPECT_EQ(attrs.GetInt("axis"), 1);
  EXPECT_EQ(attrs.GetFloat("alpha"), 0.5);
  EXPECT_EQ(attrs.GetFloat("axis"), 1.0);  // ints widen to floats
  EXPECT_EQ(attrs.GetInts("strides"), (std::vector<int64_t>{2, 2}));
  try {
    attrs.GetString("axis");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("'axis' is of kind int, expected string"), std::string::npos) << error.what();
  }
  EXPECT_THROW(attrs.GetInt("missing"), Error);
}

TEST(AttrsTest, EqualityAndHashFollowContents) {
  Attrs a{{"x", int64_t{1}}, {"y", std::string("s")}};
  Attrs b{{"y", std::string("s")}, {"x", int64_t{1}}};
  Attrs c{{"x", int64_t{2}}, {"y", std::string("s")}};
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.Hash(), b.Hash());
  EXPECT_FALSE(a == c);
  EXPECT_NE(a.Hash(), c.Hash());
  EXPECT_EQ(a.ToString(), "x=1, y=\"s\"");
}

}  // namespace
}  // namespace collage
