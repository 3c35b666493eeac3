// A small writer of JSON objects for the CLI's machine-readable outputs (`bench --json`):
// keys keep their insertion order, numbers print with enough digits to round-trip, and
// non-finite numbers print as null (JSON has no NaN or infinity).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace collage::cli {

class JsonObject {
 public:
  JsonObject& Set(const std::string& key, const std::string& value);
  JsonObject& Set(const std::string& key, const char* value) { return Set(key, std::string(value)); }
  JsonObject& Set(const std::string& key, double value);
  JsonObject& Set(const std::string& key, int64_t value);
  JsonObject& Set(const std::string& key, JsonObject value);

  // Two-space indented text ending without a newline.
  std::string ToString(int indent = 0) const;

 private:
  using Member = std::variant<std::string, double, int64_t, std::shared_ptr<JsonObject>>;
  std::vector<std::pair<std::string, Member>> members_;
};

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(const std::string& text);

}  // namespace collage::cli
