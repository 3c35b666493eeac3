// Helpers for the library backends' tests (onednn, openblas, xnnpack): partitions with random
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

// A convolution block: conv2d (3 -> 5 channels, 3x3, padded) of %x [1, 3, 9, 11], relu, plus
// the second parameter %y, of the result's shape [1, 5, 9, 11].
Function ConvolutionReluAdd();

// The Error message of compiling `function`, or "" when it compiles.
std::string CompileError(const Backend& backend, const Function& function);

}  // namespace collage::testing
