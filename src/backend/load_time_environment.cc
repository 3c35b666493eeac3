#include "backend/load_time_environment.h"

#include <unistd.h>

extern char** environ;

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

std::vector<std::string> ProcessEnvironmentWithLoadTimeSettings(const BackendRegistry& registry) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  return WithLoadTimeEnvironment(std::move(environment), registry);
}

void ReexecuteWithLoadTimeEnvironment(const BackendRegistry& registry, char** argv) {
  std::vector<std::string> environment = ProcessEnvironmentWithLoadTimeSettings(registry);
  size_t current = 0;
  while (environ[current] != nullptr) ++current;
  if (environment.size() == current) return;
  std::vector<char*> pointers;
  for (std::string& entry : environment) pointers.push_back(entry.data());
  pointers.push_back(nullptr);
  execve("/proc/self/exe", argv, pointers.data());  // returns only on failure: carry on as we are
}

}  // namespace collage
