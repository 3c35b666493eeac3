// Helpers for the library backends' tests (onednn, openblas): partitions with random
// constant weights, and the one-line reason a backend gives for not compiling a function.
#pragma once

#include <string>
#include <vector>

#include "backend/backend.h"

namespace collage::testing {

// The type-checked @main of `text`, meta[K] being uniform random values of shape
// `meta_shapes[K]` in [-1, 1) (seed + K).
Function ParseMainWithRandomConstants(const std::string& text, const std::vector<Shape>& meta_shapes,
                                      uint64_t seed = 7);

// The Error message of compiling `function`, or "" when it compiles.
std::string CompileError(const Backend& backend, const Function& function);

}  // namespace collage::testing
