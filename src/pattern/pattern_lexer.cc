#include "pattern/pattern_lexer.h"

#include <algorithm>
#include <cctype>

namespace collage {
namespace {

bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string DescribePatternToken(const PatternToken& token) {
  switch (token.kind) {
    case PatternTokenKind::kEnd: return "end of input";
    case PatternTokenKind::kNewline: return "end of line";
    case PatternTokenKind::kString: return "string \"" + token.text + "\"";
    case PatternTokenKind::kSubPattern: return "'$" + token.text + "'";
    case PatternTokenKind::kVarName: return "'%" + token.text + "'";
    default: return "'" + token.text + "'";
  }
}

PatternLexer::PatternLexer(std::string_view text, std::string file_name)
    : cursor_(text), file_name_(std::move(file_name)) {}

void PatternLexer::Fail(int line, int column, const std::string& message) const {
  throw ParseError(LocationOf(line, column), message);
}

void PatternLexer::SkipBlanksAndComments() {
  while (!cursor_.AtEnd()) {
    const char c = cursor_.Peek();
    if (c == ' ' || c == '\t' || c == '\r') {
      cursor_.Advance();
    } else if (c == '#' || (c == '/' && cursor_.Peek(1) == '/')) {
      while (!cursor_.AtEnd() && cursor_.Peek() != '\n') cursor_.Advance();
    } else {
      return;
    }
  }
}

std::string PatternLexer::LexWord() {
  std::string word;
  while (IsWordChar(cursor_.Peek())) {
    word += cursor_.Peek();
    cursor_.Advance();
    if (cursor_.Peek() == '.' && IsWordStart(cursor_.Peek(1))) {
      word += '.';
      cursor_.Advance();
    }
  }
  return word;
}

std::string PatternLexer::LexQuoted(int line, int column) {
  cursor_.Advance();  // opening quote
  std::string text;
  while (true) {
    const char c = cursor_.Peek();
    if (cursor_.AtEnd() || c == '\n') Fail(line, column, "unterminated string; expected a closing '\"'");
    cursor_.Advance();
    if (c == '"') return text;
    if (c == '\\') {
      if (cursor_.AtEnd()) Fail(line, column, "unterminated string; expected a closing '\"'");
      text += cursor_.Peek();
      cursor_.Advance();
    } else {
      text += c;
    }
  }
}

PatternToken PatternLexer::LexNumber(int line, int column) {
  PatternToken token{PatternTokenKind::kInteger, "", line, column};
  while (IsDigit(cursor_.Peek())) {
    token.text += cursor_.Peek();
    cursor_.Advance();
  }
  if (after_dot_) return token;
  if (cursor_.Peek() == '.' && IsDigit(cursor_.Peek(1))) {
    token.kind = PatternTokenKind::kFloat;
    token.text += '.';
    cursor_.Advance();
    while (IsDigit(cursor_.Peek())) {
      token.text += cursor_.Peek();
      cursor_.Advance();
    }
  }
  const bool signed_exponent = (cursor_.Peek(1) == '+' || cursor_.Peek(1) == '-') && IsDigit(cursor_.Peek(2));
  if ((cursor_.Peek() == 'e' || cursor_.Peek() == 'E') && (IsDigit(cursor_.Peek(1)) || signed_exponent)) {
    token.kind = PatternTokenKind::kFloat;
    token.text += cursor_.Peek();
    cursor_.Advance();
    if (signed_exponent) {
      token.text += cursor_.Peek();
      cursor_.Advance();
    }
    while (IsDigit(cursor_.Peek())) {
      token.text += cursor_.Peek();
      cursor_.Advance();
    }
  }
  if (IsWordStart(cursor_.Peek())) {
    Fail(cursor_.line(), cursor_.column(), "unexpected '" + std::string(1, cursor_.Peek()) + "' after the number " + token.text);
  }
  return token;
}

PatternToken PatternLexer::Next() {
  while (true) {
    SkipBlanksAndComments();
    const int line = cursor_.line();
    const int column = cursor_.column();
    if (cursor_.AtEnd()) return PatternToken{PatternTokenKind::kEnd, "", line, column};
    const char c = cursor_.Peek();
    if (c == '\n') {
      cursor_.Advance();
      after_dot_ = false;
      if (bracket_depth_ > 0) continue;
      return PatternToken{PatternTokenKind::kNewline, "\n", line, column};
    }
    PatternToken token{PatternTokenKind::kEnd, std::string(1, c), line, column};
    auto single = [&](PatternTokenKind kind) {
      token.kind = kind;
      cursor_.Advance();
    };
    auto open = [&](PatternTokenKind kind) {
      single(kind);
      ++bracket_depth_;
    };
    auto close = [&](PatternTokenKind kind) {
      single(kind);
      bracket_depth_ = std::max(0, bracket_depth_ - 1);
    };
    switch (c) {
      case '*': single(PatternTokenKind::kStar); break;
      case '|': single(PatternTokenKind::kPipe); break;
      case '?': single(PatternTokenKind::kQuestion); break;
      case ',': single(PatternTokenKind::kComma); break;
      case '=': single(PatternTokenKind::kEquals); break;
      case '-': single(PatternTokenKind::kMinus); break;
      case '.': single(PatternTokenKind::kDot); break;
      case '(': open(PatternTokenKind::kLeftParen); break;
      case '[': open(PatternTokenKind::kLeftBracket); break;
      case '{': open(PatternTokenKind::kLeftBrace); break;
      case ')': close(PatternTokenKind::kRightParen); break;
      case ']': close(PatternTokenKind::kRightBracket); break;
      case '}': close(PatternTokenKind::kRightBrace); break;
      case ':':
        single(PatternTokenKind::kColon);
        if (cursor_.Peek() == '=') {
          token = PatternToken{PatternTokenKind::kDefine, ":=", line, column};
          cursor_.Advance();
        }
        break;
      case '$':
        cursor_.Advance();
        if (!IsWordStart(cursor_.Peek())) Fail(line, column, "expected a sub-pattern name after '$'");
        token = PatternToken{PatternTokenKind::kSubPattern, LexWord(), line, column};
        break;
      case '%':
        cursor_.Advance();
        if (cursor_.Peek() == '"') {
          token = PatternToken{PatternTokenKind::kVarName, LexQuoted(cursor_.line(), cursor_.column()), line, column};
        } else {
          std::string name;
          while (IsWordChar(cursor_.Peek())) {
            name += cursor_.Peek();
            cursor_.Advance();
          }
          if (name.empty()) Fail(line, column, "expected a variable name after '%'");
          token = PatternToken{PatternTokenKind::kVarName, name, line, column};
        }
        break;
      case '"': token = PatternToken{PatternTokenKind::kString, LexQuoted(line, column), line, column}; break;
      default:
        if (IsDigit(c)) {
          token = LexNumber(line, column);
        } else if (IsWordStart(c)) {
          token = PatternToken{PatternTokenKind::kName, LexWord(), line, column};
        } else {
          Fail(line, column, "unexpected character '" + std::string(1, c) + "'");
        }
    }
    after_dot_ = token.kind == PatternTokenKind::kDot;
    return token;
  }
}

}  // namespace collage
