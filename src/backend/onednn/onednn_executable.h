// Runs a lowered oneDNN program: binds the caller's tensors to the boundary memories, then
// executes the primitives in order on one stream with the compile-time thread count.
#pragma once

#include <memory>

#include "backend/backend.h"
#include "backend/onednn/lowering.h"

namespace collage::onednn {

std::unique_ptr<Executable> MakeExecutable(Program program, dnnl::engine engine, int threads);

}  // namespace collage::onednn
