#include "runtime/greedy_placement.h"

#include <algorithm>

#include "backend/zero_size_guard.h"
#include "pass/byoc/partition_greedy.h"

namespace collage {
namespace {

SupportDeclaration DeclarationFor(const Backend& backend) {
  SupportDeclaration declaration = GuardedSupport(backend);
  if (backend.runs_every_op()) declaration.supports_op = [](const CallNode&) { return true; };
  return declaration;
}

}  // namespace

Module PlaceGreedy(const Module& module, const std::vector<BackendPtr>& backends_in_priority_order,
                   const BackendPtr& fallback) {
  Check(fallback != nullptr, "PlaceGreedy: no fallback backend");
  if (!fallback->runs_every_op()) {
    throw Error("backend '" + fallback->name() + "' cannot be the fallback: it does not run every op");
  }
  std::vector<SupportDeclaration> declarations;
  for (const BackendPtr& backend : backends_in_priority_order) declarations.push_back(DeclarationFor(*backend));
  const bool fallback_listed =
      std::any_of(backends_in_priority_order.begin(), backends_in_priority_order.end(),
                  [&](const BackendPtr& backend) { return backend->name() == fallback->name(); });
  if (!fallback_listed) {
    declarations.push_back(DeclarationFor(*fallback));
  }
  return PartitionGreedy(std::move(declarations))(module);
}

Module PlaceGreedy(const Module& module, const std::vector<std::string>& names, const BackendRegistry& registry) {
  std::vector<BackendPtr> backends;
  for (const std::string& name : names) backends.push_back(registry.Get(name));
  return PlaceGreedy(module, backends, registry.UniversalFallback());
}

}  // namespace collage
