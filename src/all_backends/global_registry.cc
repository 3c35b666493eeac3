#include "all_backends/all_backends.h"
#include "all_backends/global_registry_additions.h"
#include "support/error.h"

namespace collage {

namespace {

struct GlobalAdditions {
  std::vector<BackendPtr> backends;
  bool global_built = false;
};

GlobalAdditions& Additions() {
  static GlobalAdditions additions;
  return additions;
}

}  // namespace

const BackendRegistry& BackendRegistry::Global() {
  static const BackendRegistry registry = [] {
    BackendRegistry built;
    RegisterAllBackends(built);
    for (const BackendPtr& backend : Additions().backends) built.Register(backend);
    Additions().global_built = true;
    return built;
  }();
  return registry;
}

void AddToGlobalRegistry(BackendPtr backend) {
  Check(!Additions().global_built, "AddToGlobalRegistry: the global registry is already built");
  Additions().backends.push_back(std::move(backend));
}

}  // namespace collage
