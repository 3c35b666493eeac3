// strided_slice's resolution of its attributes into one range per dimension (ONNX Slice
// semantics), shared by the reference kernel and code generators.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/attrs.h"
#include "support/shape.h"

namespace collage {

// The elements strided_slice takes along one dimension: start, start + step, ... (count of them).
struct SliceRange {
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
};

// Resolves one dimension of extent `extent`: negative bounds count from the end, then bounds
// are clamped ([0, extent] going forward, [-1, extent - 1] backward).
SliceRange ResolveSliceRange(int64_t begin, int64_t end, int64_t step, int64_t extent);

// One SliceRange per dimension of `shape` (the whole dimension where no axis names it); throws
// TypeError for inconsistent attributes.
std::vector<SliceRange> ResolveSlice(const Shape& shape, const Attrs& attrs);

}  // namespace collage
