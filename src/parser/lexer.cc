#include "parser/lexer.h"

#include <cstdio>

namespace collage {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || IsDigit(c); }

std::string PrintableChar(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string(1, c);
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "\\x%02x", static_cast<unsigned char>(c));
  return buffer;
}

}  // namespace

std::string DescribeTokenKind(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd: return "end of input";
    case TokenKind::kLocal: return "a %name";
    case TokenKind::kGlobal: return "a @name";
    case TokenKind::kIdentifier: return "a name";
    case TokenKind::kInteger: return "an integer";
    case TokenKind::kFloat: return "a number";
    case TokenKind::kString: return "a string";
    case TokenKind::kLeftParen: return "'('";
    case TokenKind::kRightParen: return "')'";
    case TokenKind::kLeftBracket: return "'['";
    case TokenKind::kRightBracket: return "']'";
    case TokenKind::kLeftBrace: return "'{'";
    case TokenKind::kRightBrace: return "'}'";
    case TokenKind::kComma: return "','";
    case TokenKind::kEquals: return "'='";
    case TokenKind::kColon: return "':'";
    case TokenKind::kDot: return "'.'";
    case TokenKind::kArrow: return "'->'";
  }
  return "?";
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kLocal: return "'%" + token.text + "'";
    case TokenKind::kGlobal: return "'@" + token.text + "'";
    case TokenKind::kIdentifier:
    case TokenKind::kInteger:
    case TokenKind::kFloat: return "'" + token.text + "'";
    case TokenKind::kString: return "string \"" + token.text + "\"";
    default: return DescribeTokenKind(token.kind);
  }
}

Lexer::Lexer(std::string_view text, std::string file_name) : cursor_(text), file_name_(std::move(file_name)) {}

void Lexer::Fail(int line, int column, const std::string& message) const {
  throw ParseError(LocationOf(line, column), message);
}

void Lexer::SkipSpaceAndComments() {
  while (!cursor_.AtEnd()) {
    const char c = cursor_.Peek();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      cursor_.Advance();
    } else if (c == '/' && cursor_.Peek(1) == '/') {
      while (!cursor_.AtEnd() && cursor_.Peek() != '\n') cursor_.Advance();
    } else {
      return;
    }
  }
}

std::string Lexer::LexName(int line, int column) {
  const char sigil = cursor_.Peek();
  cursor_.Advance();
  if (cursor_.Peek() == '"') return LexString(cursor_.line(), cursor_.column());
  std::string name;
  while (IsIdentifierChar(cursor_.Peek())) {
    name += cursor_.Peek();
    cursor_.Advance();
  }
  if (name.empty()) Fail(line, column, std::string("expected a name after '") + sigil + "'");
  return name;
}

std::string Lexer::LexString(int line, int column) {
  cursor_.Advance();  // opening quote
  std::string value;
  while (true) {
    if (cursor_.AtEnd()) Fail(line, column, "unterminated string (missing closing '\"')");
    const char c = cursor_.Peek();
    if (c == '"') {
      cursor_.Advance();
      return value;
    }
    if (c == '\\') {
      const int escape_line = cursor_.line();
      const int escape_column = cursor_.column();
      cursor_.Advance();
      const char escaped = cursor_.Peek();
      if (escaped == '"' || escaped == '\\') {
        value += escaped;
      } else if (escaped == 'n') {
        value += '\n';
      } else if (escaped == 't') {
        value += '\t';
      } else {
        Fail(escape_line, escape_column,
             "unknown escape '\\" + PrintableChar(escaped) + "' in string (expected \\\", \\\\, \\n or \\t)");
      }
      cursor_.Advance();
      continue;
    }
    value += c;
    cursor_.Advance();
  }
}

Token Lexer::LexNumber(int line, int column) {
  const size_t start = cursor_.position();
  bool is_float = false;
  if (cursor_.Peek() == '-') cursor_.Advance();
  while (IsDigit(cursor_.Peek())) cursor_.Advance();
  if (!after_dot_ && cursor_.Peek() == '.' && IsDigit(cursor_.Peek(1))) {
    is_float = true;
    cursor_.Advance();
    while (IsDigit(cursor_.Peek())) cursor_.Advance();
  }
  if (!after_dot_ && (cursor_.Peek() == 'e' || cursor_.Peek() == 'E')) {
    is_float = true;
    cursor_.Advance();
    if (cursor_.Peek() == '+' || cursor_.Peek() == '-') cursor_.Advance();
    if (!IsDigit(cursor_.Peek())) {
      while (IsIdentifierChar(cursor_.Peek())) cursor_.Advance();
      Fail(line, column,
           "bad number '" + std::string(cursor_.Since(start)) +
               "' (expected digits after the exponent)");
    }
    while (IsDigit(cursor_.Peek())) cursor_.Advance();
  }
  if (IsIdentifierChar(cursor_.Peek())) {
    while (IsIdentifierChar(cursor_.Peek())) cursor_.Advance();
    Fail(line, column, "bad number '" + std::string(cursor_.Since(start)) + "'");
  }
  return Token{is_float ? TokenKind::kFloat : TokenKind::kInteger, std::string(cursor_.Since(start)),
               line, column};
}

Token Lexer::Next() {
  SkipSpaceAndComments();
  const int line = cursor_.line();
  const int column = cursor_.column();
  const bool after_dot = after_dot_;
  after_dot_ = false;
  if (cursor_.AtEnd()) return Token{TokenKind::kEnd, {}, line, column};

  const char c = cursor_.Peek();
  auto punctuation = [&](TokenKind kind, size_t length) {
    for (size_t i = 0; i < length; ++i) cursor_.Advance();
    return Token{kind, {}, line, column};
  };
  switch (c) {
    case '(': return punctuation(TokenKind::kLeftParen, 1);
    case ')': return punctuation(TokenKind::kRightParen, 1);
    case '[': return punctuation(TokenKind::kLeftBracket, 1);
    case ']': return punctuation(TokenKind::kRightBracket, 1);
    case '{': return punctuation(TokenKind::kLeftBrace, 1);
    case '}': return punctuation(TokenKind::kRightBrace, 1);
    case ',': return punctuation(TokenKind::kComma, 1);
    case '=': return punctuation(TokenKind::kEquals, 1);
    case ':': return punctuation(TokenKind::kColon, 1);
    case '.': after_dot_ = true; return punctuation(TokenKind::kDot, 1);
    case '%': return Token{TokenKind::kLocal, LexName(line, column), line, column};
    case '@': return Token{TokenKind::kGlobal, LexName(line, column), line, column};
    case '"': return Token{TokenKind::kString, LexString(line, column), line, column};
    default: break;
  }
  if (c == '-' && cursor_.Peek(1) == '>') return punctuation(TokenKind::kArrow, 2);
  if (c == '-' && !IsDigit(cursor_.Peek(1))) {
    for (std::string_view word : {"inf", "nan"}) {
      if (cursor_.LooksAt(word, 1) && !IsIdentifierChar(cursor_.Peek(1 + word.size()))) {
        for (size_t i = 0; i <= word.size(); ++i) cursor_.Advance();
        return Token{TokenKind::kFloat, "-" + std::string(word), line, column};
      }
    }
  }
  if (IsDigit(c) || c == '-') {
    if (c == '-' && !IsDigit(cursor_.Peek(1))) Fail(line, column, "unexpected character '-'");
    after_dot_ = after_dot;
    Token number = LexNumber(line, column);
    after_dot_ = false;
    return number;
  }
  if (IsIdentifierStart(c)) {
    std::string word;
    while (true) {
      while (IsIdentifierChar(cursor_.Peek())) {
        word += cursor_.Peek();
        cursor_.Advance();
      }
      if (cursor_.Peek() != '.' || !IsIdentifierStart(cursor_.Peek(1))) break;
      word += '.';
      cursor_.Advance();
    }
    return Token{TokenKind::kIdentifier, std::move(word), line, column};
  }
  Fail(line, column, "unexpected character '" + PrintableChar(c) + "'");
}

}  // namespace collage
