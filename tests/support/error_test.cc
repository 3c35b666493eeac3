// ParseError: the location prefix, and one line whatever the message or file name quotes.
#include "support/error.h"

#include <gtest/gtest.h>

#include <string>

namespace collage {
namespace {

TEST(ParseErrorTest, PrefixesAKnownLocation) {
  EXPECT_STREQ(ParseError({"m.cir", 3, 7}, "expected ')'").what(), "m.cir:3:7: expected ')'");
  EXPECT_STREQ(ParseError({"", 3, 7}, "expected ')'").what(), "3:7: expected ')'");
  EXPECT_STREQ(ParseError({}, "empty input").what(), "empty input");
}

TEST(ParseErrorTest, EscapesLineBreaksAndControlCharactersInMessageAndFileName) {
  const ParseError error({"a\nb.cir", 1, 2}, "undefined variable %x\ny\t\x01");
  const std::string message = error.what();
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message, "a\\nb.cir:1:2: undefined variable %x\\ny\\t\\x01");
  EXPECT_EQ(error.location().file, "a\nb.cir");
}

}  // namespace
}  // namespace collage
