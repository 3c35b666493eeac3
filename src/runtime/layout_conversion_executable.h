// The executable of an execution plan's conversion step: rewrites one buffer in another
// layout (support/layout_conversion.h).
#pragma once

#include <memory>

#include "backend/backend.h"
#include "support/tensor_format.h"

namespace collage {

// Converts its one input, a buffer of a tensor of logical shape `logical` in `from`, into its
// one output in `to`.
std::unique_ptr<Executable> MakeLayoutConversionExecutable(Shape logical, Layout from, Layout to);

}  // namespace collage
