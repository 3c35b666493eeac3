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

// `source` (a buffer of PhysicalShape(logical, from)) in layout `to`: the same buffer reshaped
// where the bytes agree, else a new converted one.
Tensor ConvertedLayout(const Tensor& source, Layout from, Layout to, const Shape& logical);

// The same on raw buffers of `element_bytes`-sized elements.
void ConvertLayout(const void* source, Layout from, void* target, Layout to, const Shape& logical,
                   size_t element_bytes);

}  // namespace collage
