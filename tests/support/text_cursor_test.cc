// TextCursor: characters ahead, line and column across line breaks, and the ends of the text.
#include "support/text_cursor.h"

#include <gtest/gtest.h>

#include <string>

namespace collage {
namespace {

TEST(TextCursorTest, TracksLinesAndColumnsAndStopsAtTheEnd) {
  TextCursor cursor("ab\nc");
  EXPECT_EQ(cursor.Peek(), 'a');
  EXPECT_EQ(cursor.Peek(2), '\n');
  EXPECT_EQ(cursor.Peek(4), '\0');
  EXPECT_TRUE(cursor.LooksAt("ab"));
  EXPECT_TRUE(cursor.LooksAt("b\nc", 1));
  EXPECT_FALSE(cursor.LooksAt("b\ncd", 1));
  EXPECT_FALSE(cursor.LooksAt("x", 9));
  cursor.Advance();
  cursor.Advance();
  EXPECT_EQ(cursor.line(), 1);
  EXPECT_EQ(cursor.column(), 3);
  cursor.Advance();
  EXPECT_EQ(cursor.line(), 2);
  EXPECT_EQ(cursor.column(), 1);
  EXPECT_EQ(cursor.Since(1), "b\n");
  cursor.Advance();
  EXPECT_TRUE(cursor.AtEnd());
  EXPECT_EQ(cursor.Peek(), '\0');
  cursor.Advance();  // nowhere to go
  EXPECT_EQ(cursor.position(), 4u);
  EXPECT_EQ(cursor.column(), 2);
}

}  // namespace
}  // namespace collage
