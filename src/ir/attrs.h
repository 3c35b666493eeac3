// Attributes of calls and functions: an ordered map from name to a typed value.
// Op calls carry attributes normalized against the op's schema (every declared
// attribute present, of its declared kind); function attributes are free-form.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace collage {

enum class AttrKind { kInt, kFloat, kString, kInts, kFloats };

using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

AttrKind KindOf(const AttrValue& value);
std::string_view AttrKindName(AttrKind kind);
// Text-format spelling: 3, 0.5, "linear", [1, 1], [0.5, 2.0]. Floats always carry a '.' or
// an exponent and print with enough digits to round-trip exactly.
std::string AttrValueToString(const AttrValue& value);

class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<const std::string, AttrValue>> values) : values_(values) {}

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  const AttrValue& Get(const std::string& name) const;
  // Typed getters: throw Error naming the attribute when it is missing or of another kind.
  // GetFloat also accepts an integer value.
  int64_t GetInt(const std::string& name) const;
  double GetFloat(const std::string& name) const;
  const std::string& GetString(const std::string& name) const;
  const std::vector<int64_t>& GetInts(const std::string& name) const;
  const std::vector<double>& GetFloats(const std::string& name) const;

  void Set(const std::string& name, AttrValue value) { values_[name] = std::move(value); }
  void Erase(const std::string& name) { values_.erase(name); }

  const std::map<std::string, AttrValue>& values() const { return values_; }
  bool empty() const { return values_.empty(); }
  bool operator==(const Attrs& other) const { return values_ == other.values_; }

  size_t Hash() const;
  // "name=value, name=value" in name order.
  std::string ToString() const;

 private:
  std::map<std::string, AttrValue> values_;
};

}  // namespace collage
