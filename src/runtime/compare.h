// Compares a computed value with an expected one (usually the reference interpreter's),
// element by element, the way every backend's result is checked: element i passes when
//   |actual - expected| <= absolute + relative * |expected|      (numpy.allclose)
// NaN matches only NaN and an infinity only the same infinity. Integers and bools compare
// exactly by default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/value.h"
#include "support/dtype.h"
#include "support/tensor.h"

namespace collage {

struct Tolerance {
  double absolute = 0.0;
  double relative = 0.0;
};

// f32: 1e-4 / 1e-4; f16: 1e-2 / 1e-2; bf16: 5e-2 / 5e-2; integers and bool: exact.
Tolerance DefaultTolerance(DType dtype);

struct Comparison {
  // Largest |actual - expected| over all finite pairs.
  double max_abs_error = 0.0;
  // Largest |actual - expected| / |expected| over the finite pairs with expected != 0.
  double max_rel_error = 0.0;
  // Elements outside the tolerance.
  int64_t mismatches = 0;
  // The first element outside the tolerance, e.g.
  // "tensor 0, element 5 at [0, 1, 1]: got 1.5, expected 1.25 (tolerance 0.0001 + 0.0001 * |expected|)";
  // empty when there is none.
  std::string first_mismatch;

  bool ok() const { return mismatches == 0; }
};

// Compares two values of the same structure (tuples flattened, tensors numbered in that
// order); a different structure, dtype or shape is an Error. `tolerance` overrides the
// per-dtype default.
Comparison CompareValues(const Value& actual, const Value& expected,
                         const std::optional<Tolerance>& tolerance = std::nullopt);

}  // namespace collage
