// The ops the onednn backend runs, by family (the primitive builder that lowers them).
#pragma once

#include <optional>
#include <string>

#include "support/shape.h"

namespace collage::onednn {

enum class OpFamily { kConvolution, kMatmul, kPooling, kEltwise, kBinary, kNormalization, kReshape, kTranspose,
                      kConcat };

// The family of a registered op name, or nullopt when oneDNN does not run it.
std::optional<OpFamily> FamilyOf(const std::string& op);

// `shape` with leading 1s up to `rank` (numpy broadcasting).
Shape WithLeadingOnes(const Shape& shape, size_t rank);

// True when a binary op of the kBinary family runs on operands of these shapes. oneDNN's binary
// primitive broadcasts its second source only, so the first operand must have the result's
// shape, or the op must commute (add, multiply, maximum, minimum) and the second have it.
bool BinaryOperandsFit(const std::string& op, const Shape& first, const Shape& second, const Shape& result);

}  // namespace collage::onednn
