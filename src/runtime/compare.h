// Compares a computed value with an expected one (usually the reference interpreter's), the
// way every backend's and placement's result is checked. Each tensor of the value is judged
// against its own magnitude, the largest finite |expected| in it:
//   max |actual - expected| <= relative * max |expected| + floor(dtype)
// so a tensor of tiny values is no easier to match than one of values near 1, and an all-zero
// result never passes for a non-zero expected one. The floor, the smallest normal float32 for
// floating dtypes, only lets an expected tensor of zeros and subnormals accept a backend that
// flushes subnormals to zero (or does not).
// NaN matches only NaN and an infinity only the same infinity. Integers and bools compare
// exactly by default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/value.h"
#include "support/dtype.h"
#include "support/tensor.h"

namespace collage {

// The error a tensor may have, as a fraction of its largest finite |expected|.
struct Tolerance {
  double relative = 0.0;
};

// f32: 1e-4; f16: 1e-2; bf16: 5e-2; integers and bool: 0 (exact).
Tolerance DefaultTolerance(DType dtype);

// The absolute error always accepted: the smallest normal float32 (about 1.2e-38) for floating
// dtypes, 0 for integers and bool.
double AbsoluteFloor(DType dtype);

struct Comparison {
  // Largest |actual - expected| over all finite pairs.
  double max_abs_error = 0.0;
  // Largest, over the tensors, of max |actual - expected| / max |expected| (the error the
  // tolerance bounds); infinite where a tensor with all-zero expected values differs.
  double max_scaled_error = 0.0;
  // Elements whose error exceeds their tensor's bound.
  int64_t mismatches = 0;
  // The first element outside the bound, e.g.
  // "tensor 0, element 5 at [0, 1, 1]: got 1.5, expected 1.25 (bound 0.0001 * max |expected| 2.5)";
  // empty when there is none.
  std::string first_mismatch;

  bool ok() const { return mismatches == 0; }
};

// Compares two values of the same structure (tuples flattened, tensors numbered in that
// order); a different structure, dtype or shape is an Error. `tolerance` overrides the
// per-dtype default.
Comparison CompareValues(const Value& actual, const Value& expected,
                         const std::optional<Tolerance>& tolerance = std::nullopt);

// The same for two lists of tensors compared pairwise (a run's flattened outputs against
// arrays read back from a file); different lengths are an Error.
Comparison CompareTensorLists(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected,
                              const std::optional<Tolerance>& tolerance = std::nullopt);

}  // namespace collage
