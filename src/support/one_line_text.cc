#include "support/one_line_text.h"

namespace collage {

std::string OneLineText(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      escaped += "\\n";
    } else if (c == '\t') {
      escaped += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      escaped += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    } else {
      escaped += c;
    }
  }
  return escaped;
}

}  // namespace collage
