// The permutation a transpose's `axes` attribute names, shared by the op and the rewrites
// that move transposes.
#pragma once

#include <cstdint>
#include <vector>

namespace collage {

// Output dimension i is input dimension result[i]: `axes` with negative entries counted from
// the end, or the dimensions reversed when `axes` is empty. Throws TypeError when `axes` is not
// a permutation of `rank` dimensions.
std::vector<int64_t> TransposePermutation(int64_t rank, const std::vector<int64_t>& axes);

}  // namespace collage
