// The backends of this build, one registration line each. Backends that need an optional
// library or device are guarded by the COLLAGE_WITH_<NAME> macro their folder's backend.cmake
// defines when the library is found.
#include "all_backends/all_backends.h"

#include "backend/native/native_backend.h"
#include "backend/reference/reference_backend.h"
#ifdef COLLAGE_WITH_ONEDNN
#include "backend/onednn/onednn_backend.h"
#endif
#ifdef COLLAGE_WITH_OPENBLAS
#include "backend/openblas/openblas_backend.h"
#endif
#ifdef COLLAGE_WITH_XNNPACK
#include "backend/xnnpack/xnnpack_backend.h"
#endif

namespace collage {

void RegisterAllBackends(BackendRegistry& registry) {
  registry.Register(std::make_shared<ReferenceBackend>());
  registry.Register(std::make_shared<NativeBackend>());
#ifdef COLLAGE_WITH_ONEDNN
  registry.Register(std::make_shared<OnednnBackend>());
#endif
#ifdef COLLAGE_WITH_OPENBLAS
  registry.Register(std::make_shared<OpenblasBackend>());
#endif
#ifdef COLLAGE_WITH_XNNPACK
  registry.Register(std::make_shared<XnnpackBackend>());
#endif
}

}  // namespace collage
