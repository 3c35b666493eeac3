// The backends of this build: the one layer that names them all.
#pragma once

#include "backend/backend.h"

namespace collage {

// Registers every backend of this build (all_backends.cc: one line per backend).
void RegisterAllBackends(BackendRegistry& registry);

}  // namespace collage
