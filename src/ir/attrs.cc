#include "ir/attrs.h"

#include <charconv>
#include <cmath>

#include "support/error.h"
#include "support/hash.h"

namespace collage {
namespace {

std::string FloatToString(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);  // shortest round-trip
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string QuoteString(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '\n') {
      quoted += "\\n";
    } else if (c == '\t') {
      quoted += "\\t";
    } else {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
  }
  return quoted + "\"";
}

template <typename T, typename Format>
std::string ListToString(const std::vector<T>& values, Format format) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += format(values[i]);
  }
  return text + "]";
}

}  // namespace

AttrKind KindOf(const AttrValue& value) { return static_cast<AttrKind>(value.index()); }

std::string_view AttrKindName(AttrKind kind) {
  switch (kind) {
    case AttrKind::kInt: return "int";
    case AttrKind::kFloat: return "float";
    case AttrKind::kString: return "string";
    case AttrKind::kInts: return "int list";
    case AttrKind::kFloats: return "float list";
  }
  return "?";
}

std::string AttrValueToString(const AttrValue& value) {
  switch (KindOf(value)) {
    case AttrKind::kInt: return std::to_string(std::get<int64_t>(value));
    case AttrKind::kFloat: return FloatToString(std::get<double>(value));
    case AttrKind::kString: return QuoteString(std::get<std::string>(value));
    case AttrKind::kInts:
      return ListToString(std::get<std::vector<int64_t>>(value), [](int64_t v) { return std::to_string(v); });
    case AttrKind::kFloats:
      return ListToString(std::get<std::vector<double>>(value), FloatToString);
  }
  return "?";
}

const AttrValue& Attrs::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw Error("missing attribute '" + name + "'");
  return it->second;
}

namespace {

template <typename T>
const T& GetAs(const Attrs& attrs, const std::string& name, AttrKind kind) {
  const AttrValue& value = attrs.Get(name);
  if (const T* typed = std::get_if<T>(&value)) return *typed;
  throw Error("attribute '" + name + "' is of kind " + std::string(AttrKindName(KindOf(value))) +
              ", expected " + std::string(AttrKindName(kind)));
}

}  // namespace

int64_t Attrs::GetInt(const std::string& name) const {
  return GetAs<int64_t>(*this, name, AttrKind::kInt);
}

double Attrs::GetFloat(const std::string& name) const {
  const AttrValue& value = Get(name);
  if (const int64_t* integer = std::get_if<int64_t>(&value)) return static_cast<double>(*integer);
  return GetAs<double>(*this, name, AttrKind::kFloat);
}

const std::string& Attrs::GetString(const std::string& name) const {
  return GetAs<std::string>(*this, name, AttrKind::kString);
}

const std::vector<int64_t>& Attrs::GetInts(const std::string& name) const {
  return GetAs<std::vector<int64_t>>(*this, name, AttrKind::kInts);
}

const std::vector<double>& Attrs::GetFloats(const std::string& name) const {
  return GetAs<std::vector<double>>(*this, name, AttrKind::kFloats);
}

size_t Attrs::Hash() const {
  size_t hash = HashValue(values_.size());
  for (const auto& [name, value] : values_) {
    hash = HashCombine(hash, HashValue(name));
    hash = HashCombine(hash, HashValue(AttrValueToString(value)));
  }
  return hash;
}

std::string Attrs::ToString() const {
  std::string text;
  for (const auto& [name, value] : values_) {
    if (!text.empty()) text += ", ";
    text += name + "=" + AttrValueToString(value);
  }
  return text;
}

}  // namespace collage
