// Backends a program adds to BackendRegistry::Global(), after this build's own: for a program
// built with extra backends of its own (the command-line tool of the negative-control tests).
#pragma once

#include "backend/backend.h"

namespace collage {

// Throws Error once Global() has been built.
void AddToGlobalRegistry(BackendPtr backend);

}  // namespace collage
