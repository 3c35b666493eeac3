#include "ir/module.h"

#include <algorithm>

namespace collage {

void Module::Add(const std::string& name, Function function) {
  Check(function != nullptr, "Module::Add: null function '" + name + "'");
  for (auto& [existing, body] : functions_) {
    if (existing == name) {
      body = std::move(function);
      return;
    }
  }
  if (name == "main") {
    functions_.insert(functions_.begin(), {name, std::move(function)});
  } else {
    functions_.emplace_back(name, std::move(function));
  }
}

bool Module::Has(const std::string& name) const {
  return std::any_of(functions_.begin(), functions_.end(), [&](const auto& entry) { return entry.first == name; });
}

const Function& Module::Get(const std::string& name) const {
  for (const auto& [existing, function] : functions_) {
    if (existing == name) return function;
  }
  throw Error("module has no function '@" + name + "'");
}

}  // namespace collage
