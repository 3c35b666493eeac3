#include "available_backends.h"

#include <algorithm>

#include "arguments.h"

namespace collage::cli {

const std::vector<BackendDescription>& AvailableBackends() {
  static const std::vector<BackendDescription> backends = {
      {"reference", "interpreter", "cpu"},
  };
  return backends;
}

std::vector<std::string> ParseBackendList(const std::string& text, const std::string& command) {
  std::string available;
  for (const BackendDescription& backend : AvailableBackends())
    available += (available.empty() ? "" : ", ") + backend.name;
  std::vector<std::string> names = SplitList(text, "--backends", command);
  for (size_t i = 0; i < names.size(); ++i) {
    const bool known = std::any_of(AvailableBackends().begin(), AvailableBackends().end(),
                                   [&](const BackendDescription& backend) { return backend.name == names[i]; });
    if (!known) throw UsageError("unknown backend '" + names[i] + "' (available: " + available + ")", command);
    if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i) {
      throw UsageError("backend '" + names[i] + "' listed twice in --backends", command);
    }
  }
  return names;
}

}  // namespace collage::cli
