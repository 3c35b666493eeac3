// The backends of this build, one registration line each. Backends that need an optional
// library or device are guarded by the macro their folder's backend.cmake defines.
#include "backend/backend.h"
#include "backend/native/native_backend.h"
#include "backend/reference/reference_backend.h"

namespace collage {

void RegisterAllBackends(BackendRegistry& registry) {
  registry.Register(std::make_shared<ReferenceBackend>());
  registry.Register(std::make_shared<NativeBackend>());
}

}  // namespace collage
