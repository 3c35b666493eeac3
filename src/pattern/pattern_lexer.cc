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
    : text_(text), file_name_(std::move(file_name)) {}

void PatternLexer::Fail(int line, int column, const std::string& message) const {
  throw ParseError(LocationOf(line, column), message);
}

char PatternLexer::Peek(size_t ahead) const {
  return position_ + ahead < text_.size() ? text_[position_ + ahead] : '\0';
}

void PatternLexer::Advance() {
  if (position_ >= text_.size()) return;
  if (text_[position_] == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  ++position_;
}

void PatternLexer::SkipBlanksAndComments() {
  while (position_ < text_.size()) {
    const char c = Peek();
    if (c == ' ' || c == '\t' || c == '\r') {
      Advance();
    } else if (c == '#' || (c == '/' && Peek(1) == '/')) {
      while (position_ < text_.size() && Peek() != '\n') Advance();
    } else {
      return;
    }
  }
}

std::string PatternLexer::LexWord() {
  std::string word;
  while (IsWordChar(Peek())) {
    word += Peek();
    Advance();
    if (Peek() == '.' && IsWordStart(Peek(1))) {
      word += '.';
      Advance();
    }
  }
  return word;
}

std::string PatternLexer::LexQuoted(int line, int column) {
  Advance();  // opening quote
  std::string text;
  while (true) {
    const char c = Peek();
    if (position_ >= text_.size() || c == '\n') Fail(line, column, "unterminated string; expected a closing '\"'");
    Advance();
    if (c == '"') return text;
    if (c == '\\') {
      if (position_ >= text_.size()) Fail(line, column, "unterminated string; expected a closing '\"'");
      text += Peek();
      Advance();
    } else {
      text += c;
    }
  }
}

PatternToken PatternLexer::LexNumber(int line, int column) {
  PatternToken token{PatternTokenKind::kInteger, "", line, column};
  while (IsDigit(Peek())) {
    token.text += Peek();
    Advance();
  }
  if (after_dot_) return token;
  if (Peek() == '.' && IsDigit(Peek(1))) {
    token.kind = PatternTokenKind::kFloat;
    token.text += '.';
    Advance();
    while (IsDigit(Peek())) {
      token.text += Peek();
      Advance();
    }
  }
  const bool signed_exponent = (Peek(1) == '+' || Peek(1) == '-') && IsDigit(Peek(2));
  if ((Peek() == 'e' || Peek() == 'E') && (IsDigit(Peek(1)) || signed_exponent)) {
    token.kind = PatternTokenKind::kFloat;
    token.text += Peek();
    Advance();
    if (signed_exponent) {
      token.text += Peek();
      Advance();
    }
    while (IsDigit(Peek())) {
      token.text += Peek();
      Advance();
    }
  }
  if (IsWordStart(Peek())) {
    Fail(line_, column_, "unexpected '" + std::string(1, Peek()) + "' after the number " + token.text);
  }
  return token;
}

PatternToken PatternLexer::Next() {
  while (true) {
    SkipBlanksAndComments();
    const int line = line_;
    const int column = column_;
    if (position_ >= text_.size()) return PatternToken{PatternTokenKind::kEnd, "", line, column};
    const char c = Peek();
    if (c == '\n') {
      Advance();
      after_dot_ = false;
      if (bracket_depth_ > 0) continue;
      return PatternToken{PatternTokenKind::kNewline, "\n", line, column};
    }
    PatternToken token{PatternTokenKind::kEnd, std::string(1, c), line, column};
    auto single = [&](PatternTokenKind kind) {
      token.kind = kind;
      Advance();
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
        if (Peek() == '=') {
          token = PatternToken{PatternTokenKind::kDefine, ":=", line, column};
          Advance();
        }
        break;
      case '$':
        Advance();
        if (!IsWordStart(Peek())) Fail(line, column, "expected a sub-pattern name after '$'");
        token = PatternToken{PatternTokenKind::kSubPattern, LexWord(), line, column};
        break;
      case '%':
        Advance();
        if (Peek() == '"') {
          token = PatternToken{PatternTokenKind::kVarName, LexQuoted(line_, column_), line, column};
        } else {
          std::string name;
          while (IsWordChar(Peek())) {
            name += Peek();
            Advance();
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
