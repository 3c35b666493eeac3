#include "pattern/attr_constraint.h"

#include <optional>

namespace collage {
namespace {

// The value as a list of numbers; nullopt for a string.
std::optional<std::vector<double>> AsNumbers(const AttrValue& value) {
  switch (KindOf(value)) {
    case AttrKind::kInt: return std::vector<double>{static_cast<double>(std::get<int64_t>(value))};
    case AttrKind::kFloat: return std::vector<double>{std::get<double>(value)};
    case AttrKind::kString: return std::nullopt;
    case AttrKind::kInts: {
      const auto& ints = std::get<std::vector<int64_t>>(value);
      return std::vector<double>(ints.begin(), ints.end());
    }
    case AttrKind::kFloats: return std::get<std::vector<double>>(value);
  }
  return std::nullopt;
}

bool IsList(const AttrValue& value) { return KindOf(value) == AttrKind::kInts || KindOf(value) == AttrKind::kFloats; }

bool ValueSatisfies(const AttrValue& actual, const AttrValue& required) {
  if (KindOf(actual) == AttrKind::kString || KindOf(required) == AttrKind::kString) return actual == required;
  if (IsList(actual) != IsList(required)) return false;
  if (KindOf(actual) == KindOf(required)) return actual == required;
  return AsNumbers(actual) == AsNumbers(required);
}

}  // namespace

bool AttrsSatisfy(const Attrs& actual, const Attrs& required) {
  for (const auto& [name, value] : required.values()) {
    if (!actual.Has(name) || !ValueSatisfies(actual.Get(name), value)) return false;
  }
  return true;
}

}  // namespace collage
