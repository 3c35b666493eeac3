#include "collage/backends.h"

#include "backend/backend.h"
#include "backend/load_time_environment.h"
#include "support/cpu_features.h"

namespace collage::api {

std::vector<BackendInfo> DescribeBackends() {
  std::vector<BackendInfo> backends;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    const SupportDeclaration support = backend->Support();
    BackendInfo info{backend->name(), BackendKindName(backend->kind()), DeviceName(backend->device()),
                     support.patterns.size(), {"f32"}};
    for (DType precision : support.reduced_precisions) info.precisions.emplace_back(DTypeName(precision));
    backends.push_back(std::move(info));
  }
  return backends;
}

std::string ReducedPrecisionInstructionSets() { return DescribeReducedPrecisionIsa(DetectReducedPrecisionIsa()); }

void ReexecuteWithBackendEnvironment(char** argv) {
  ReexecuteWithLoadTimeEnvironment(BackendRegistry::Global(), argv);
}

}  // namespace collage::api
