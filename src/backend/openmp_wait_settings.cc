#include "backend/openmp_wait_settings.h"

#include <cstdlib>

namespace collage {

std::vector<LoadTimeSetting> OpenMpWaitSettings() {
  std::vector<LoadTimeSetting> settings = {{"OMP_WAIT_POLICY", "passive"}};
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) settings.push_back({"GOMP_SPINCOUNT", "5000"});
  return settings;
}

}  // namespace collage
