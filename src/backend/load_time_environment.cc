#include "backend/load_time_environment.h"

#include <unistd.h>

#include <cstdlib>

namespace collage {
namespace {

bool SetsVariable(const std::vector<std::string>& environment, const std::string& name) {
  const std::string prefix = name + "=";
  for (const std::string& entry : environment) {
    if (entry.compare(0, prefix.size(), prefix) == 0) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> WithLoadTimeEnvironment(std::vector<std::string> environment,
                                                 const BackendRegistry& registry) {
  for (const BackendPtr& backend : registry.All()) {
    for (const LoadTimeSetting& setting : backend->LoadTimeEnvironment()) {
      if (!SetsVariable(environment, setting.name)) environment.push_back(setting.name + "=" + setting.value);
    }
  }
  return environment;
}

void ReexecuteWithLoadTimeEnvironment(const BackendRegistry& registry, char** argv) {
  bool changed = false;
  for (const BackendPtr& backend : registry.All()) {
    for (const LoadTimeSetting& setting : backend->LoadTimeEnvironment()) {
      if (std::getenv(setting.name.c_str()) != nullptr) continue;
      setenv(setting.name.c_str(), setting.value.c_str(), 1);
      changed = true;
    }
  }
  if (changed) execv("/proc/self/exe", argv);  // returns only on failure: carry on as we are
}

}  // namespace collage
