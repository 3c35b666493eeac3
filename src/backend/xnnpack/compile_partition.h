// Compiling a partition function into one XNNPACK subgraph and runtime.
#pragma once

#include <memory>

#include "backend/backend.h"

namespace collage::xnnpack {

// Throws Error("xnnpack: <reason>") when any part of the function is unsupported.
std::unique_ptr<Executable> CompilePartition(const Function& function, int threads);

}  // namespace collage::xnnpack
