// The tokenizer of the IR text format (docs/TEXT_FORMAT.md). It produces tokens on demand,
// so an error is reported at the first malformed token in file order. Every token carries
// its 1-based line and column; lexical errors are ParseErrors at that position.
#pragma once

#include <string>
#include <string_view>

#include "support/error.h"
#include "support/text_cursor.h"

namespace collage {

enum class TokenKind {
  kEnd,
  kLocal,       // %name or %"quoted name"; text is the name without the sigil
  kGlobal,      // @name or @"quoted name"
  kIdentifier,  // bare word, may contain inner dots: nn.conv2d, f32, fn, inf
  kInteger,     // -12
  kFloat,       // 1.5, -2e-07, -inf, -nan (a bare inf / nan is an identifier)
  kString,      // "text"; text is unescaped
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kLeftBrace,
  kRightBrace,
  kComma,
  kEquals,
  kColon,
  kDot,
  kArrow,  // ->
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  int line = 0;
  int column = 0;
};

// How a token reads in an error message: "')'", "'%x'", "'nn.relu'", "end of input".
std::string DescribeToken(const Token& token);
// How the kind of token reads when it was expected: "')'", "a number", "a name".
std::string DescribeTokenKind(TokenKind kind);

class Lexer {
 public:
  Lexer(std::string_view text, std::string file_name);

  // The next token; kEnd (repeatedly) at the end of input.
  Token Next();
  SourceLocation LocationOf(int line, int column) const { return SourceLocation{file_name_, line, column}; }

 private:
  [[noreturn]] void Fail(int line, int column, const std::string& message) const;
  void SkipSpaceAndComments();
  std::string LexName(int line, int column);
  std::string LexString(int line, int column);
  Token LexNumber(int line, int column);

  TextCursor cursor_;
  std::string file_name_;
  // After a '.', digits are a tuple index, never a fraction: %t.1.0 is two projections.
  bool after_dot_ = false;
};

}  // namespace collage
