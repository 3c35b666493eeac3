// The element type a partition function computes its products in, and the calibrated ranges of
// its parameters that quantized kernels take their activation scales from.
//
// A Primitive function may carry the Precision attribute (a DTypeName; without it: f32) and,
// with a precision other than f32, ActivationRanges: a min and a max per parameter, in
// parameter order. Its parameters and results stay f32 (dequantized): a backend quantizes an
// activation where a reduced-precision kernel reads it, with the scale of its range
// (support/quantization.h), and computes in f32 what it has no such kernel for. Backends
// declare the precisions they compute ops in (SupportDeclaration::reduced_precisions).
#pragma once

#include <vector>

#include "ir/expr.h"
#include "support/quantization.h"

namespace collage {

namespace attr {
inline constexpr const char* kPrecision = "Precision";                // string: a DTypeName
inline constexpr const char* kActivationRanges = "ActivationRanges";  // floats: min, max per parameter
}  // namespace attr

// The precision a function's attributes name (f32 without one); throws Error naming the
// attribute's value when it is not an element type.
DType PrecisionOf(const Attrs& attrs);
// The per-parameter ranges; throws Error when the attribute is missing or does not hold one
// (min <= max) pair per parameter.
std::vector<ActivationRange> ParameterRangesOf(const Function& function);

// `function` with each parameter range replaced by [0, 1] when it never goes below zero and
// [-1, 1] otherwise: the element types it quantizes to, what its latency depends on (the scales
// do not), so that measured costs and timed executables are shared between layers of one shape.
// An f32 function is returned as it is.
Function WithRangesBySign(const Function& function);

// `function` computing in `precision` with those parameter ranges (both attributes removed
// for f32).
Function WithPrecision(const Function& function, DType precision, const std::vector<ActivationRange>& parameter_ranges);

}  // namespace collage
