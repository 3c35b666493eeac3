// Lowers a flattened partition to a oneDNN program: plans post-op fusion (each convolution
// or product with its epilogue), then lowers the calls in order through the family builders.
#pragma once

#include "backend/onednn/lowering.h"

namespace collage::onednn {

// Throws Error ("onednn: ...") for an op outside the backend's families, a non-f32 value or
// an attribute a builder does not handle; dnnl::error when oneDNN has no implementation.
Program LowerPartition(FlatPartition partition, const dnnl::engine& engine);

}  // namespace collage::onednn
