// A reading position in a text: the characters at and after it, and its 1-based line and
// column, which advancing keeps up to date. The text format's lexer and the pattern language's
// read through one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace collage {

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}

  // The character `ahead` past the current one; '\0' past the end.
  char Peek(size_t ahead = 0) const { return position_ + ahead < text_.size() ? text_[position_ + ahead] : '\0'; }
  bool AtEnd() const { return position_ >= text_.size(); }
  // Moves past the current character (nowhere at the end).
  void Advance() {
    if (AtEnd()) return;
    if (text_[position_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++position_;
  }

  size_t position() const { return position_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // The text from position `begin` up to the current one.
  std::string_view Since(size_t begin) const { return text_.substr(begin, position_ - begin); }
  // Whether the text `ahead` characters past the current one starts with `word`.
  bool LooksAt(std::string_view word, size_t ahead = 0) const {
    return text_.substr(std::min(position_ + ahead, text_.size()), word.size()) == word;
  }

 private:
  std::string_view text_;
  size_t position_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace collage
