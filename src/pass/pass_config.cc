#include "pass/pass_config.h"

#include "support/error.h"

namespace collage {

PassConfigRegistry& PassConfigRegistry::Global() {
  static PassConfigRegistry registry;
  return registry;
}

void PassConfigRegistry::Register(const std::string& name, AttrValue default_value, const std::string& description) {
  auto it = options_.find(name);
  if (it != options_.end()) {
    Check(KindOf(it->second.default_value) == KindOf(default_value),
          "pass option '" + name + "' registered twice with different kinds");
    return;
  }
  options_.emplace(name, PassConfigOption{name, std::move(default_value), description});
}

const PassConfigOption& PassConfigRegistry::Get(const std::string& name) const {
  auto it = options_.find(name);
  if (it != options_.end()) return it->second;
  std::string known;
  for (const auto& [option_name, option] : options_) known += (known.empty() ? "" : ", ") + option_name;
  throw Error("unknown pass option '" + name + "' (known: " + (known.empty() ? "none" : known) + ")");
}

std::vector<const PassConfigOption*> PassConfigRegistry::AllOptions() const {
  std::vector<const PassConfigOption*> all;
  for (const auto& [name, option] : options_) all.push_back(&option);
  return all;
}

}  // namespace collage
