#include "available_backends.h"

#include <algorithm>

#include "arguments.h"
#include "backend/backend.h"

namespace collage::cli {

std::vector<std::string> ParseBackendList(const std::string& text, const std::string& command) {
  const BackendRegistry& registry = BackendRegistry::Global();
  std::string available;
  for (const std::string& name : registry.Names()) available += (available.empty() ? "" : ", ") + name;
  std::vector<std::string> names = SplitList(text, "--backends", command);
  for (size_t i = 0; i < names.size(); ++i) {
    if (!registry.Find(names[i])) {
      throw UsageError("unknown backend '" + names[i] + "' (available: " + available + ")", command);
    }
    if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i) {
      throw UsageError("backend '" + names[i] + "' listed twice in --backends", command);
    }
  }
  return names;
}

}  // namespace collage::cli
