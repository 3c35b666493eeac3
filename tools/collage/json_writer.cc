#include "json_writer.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace collage::cli {

std::string JsonQuote(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\t': quoted += "\\t"; break;
      case '\r': quoted += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          quoted += escaped;
        } else {
          quoted += c;
        }
    }
  }
  return quoted + "\"";
}

JsonObject& JsonObject::Set(const std::string& key, const std::string& value) {
  members_.emplace_back(key, value);
  return *this;
}

JsonObject& JsonObject::Set(const std::string& key, double value) {
  members_.emplace_back(key, value);
  return *this;
}

JsonObject& JsonObject::Set(const std::string& key, int64_t value) {
  members_.emplace_back(key, value);
  return *this;
}

JsonObject& JsonObject::Set(const std::string& key, JsonObject value) {
  members_.emplace_back(key, std::make_shared<JsonObject>(std::move(value)));
  return *this;
}

std::string JsonObject::ToString(int indent) const {
  if (members_.empty()) return "{}";
  const std::string inner(static_cast<size_t>(indent + 2), ' ');
  std::ostringstream text;
  text << "{\n";
  for (size_t i = 0; i < members_.size(); ++i) {
    const auto& [key, member] = members_[i];
    text << inner << JsonQuote(key) << ": ";
    if (const auto* string = std::get_if<std::string>(&member)) {
      text << JsonQuote(*string);
    } else if (const auto* number = std::get_if<double>(&member)) {
      if (std::isfinite(*number)) {
        char digits[32];
        std::snprintf(digits, sizeof(digits), "%.10g", *number);
        text << digits;
      } else {
        text << "null";
      }
    } else if (const auto* integer = std::get_if<int64_t>(&member)) {
      text << *integer;
    } else {
      text << std::get<std::shared_ptr<JsonObject>>(member)->ToString(indent + 2);
    }
    text << (i + 1 < members_.size() ? ",\n" : "\n");
  }
  text << std::string(static_cast<size_t>(indent), ' ') << "}";
  return text.str();
}

}  // namespace collage::cli
