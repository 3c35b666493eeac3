// Converting a tensor's buffer between layouts (support/tensor_format.h): the kernel behind
// every conversion step between partitions, and behind backends that convert at their edges.
#pragma once

#include "support/tensor.h"
#include "support/tensor_format.h"

namespace collage {

// Writes `source` (a buffer of PhysicalShape(logical, from)) into `target` (a buffer of
// PhysicalShape(logical, to)) of the same dtype; any element size. Throws Error when the
// buffers' dtypes or shapes do not match.
void ConvertLayout(const Tensor& source, Layout from, Tensor& target, Layout to, const Shape& logical);

// The same on raw buffers of `element_bytes`-sized elements.
void ConvertLayout(const void* source, Layout from, void* target, Layout to, const Shape& logical,
                   size_t element_bytes);

}  // namespace collage
