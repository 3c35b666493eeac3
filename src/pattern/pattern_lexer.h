// The tokenizer of the pattern text syntax (see pattern_parser.h). Tokens come on demand, each
// with its 1-based line and column. A line break is a token only outside brackets, so a
// pattern may continue over several lines inside (), [] or {}. `#` and `//` start comments
// that run to the end of the line. Lexical errors are ParseErrors at their position.
#pragma once

#include <string>
#include <string_view>

#include "support/error.h"
#include "support/text_cursor.h"

namespace collage {

enum class PatternTokenKind {
  kEnd,
  kNewline,
  kName,        // nn.conv2d, const, f32, Tensor: a word with inner dots before letters
  kSubPattern,  // $act; text is the name without '$'
  kVarName,     // %x or %"any name"; text is the name without '%'
  kInteger,     // 12
  kFloat,       // 1.5, 2e-07
  kString,      // "text"; text is unescaped
  kStar,
  kPipe,
  kQuestion,
  kDefine,  // :=
  kColon,
  kDot,
  kComma,
  kEquals,
  kMinus,
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kLeftBrace,
  kRightBrace,
};

struct PatternToken {
  PatternTokenKind kind = PatternTokenKind::kEnd;
  std::string text;
  int line = 0;
  int column = 0;
};

// How a token reads in a message: "')'", "'nn.relu'", "end of line", "end of input".
std::string DescribePatternToken(const PatternToken& token);

class PatternLexer {
 public:
  PatternLexer(std::string_view text, std::string file_name);

  PatternToken Next();
  SourceLocation LocationOf(int line, int column) const { return SourceLocation{file_name_, line, column}; }

 private:
  [[noreturn]] void Fail(int line, int column, const std::string& message) const;
  // Skips blanks and comments; stops at a line break.
  void SkipBlanksAndComments();
  std::string LexWord();
  std::string LexQuoted(int line, int column);
  PatternToken LexNumber(int line, int column);

  TextCursor cursor_;
  std::string file_name_;
  int bracket_depth_ = 0;
  // After a '.', digits are a tuple index, never a fraction: x.0.1 is two projections.
  bool after_dot_ = false;
};

}  // namespace collage
