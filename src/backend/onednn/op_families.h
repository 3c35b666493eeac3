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

// Whether one binary primitive computes binary op `op` (add, subtract, ...) on operands of
// these shapes: oneDNN broadcasts its second source only, so a commutative op may swap a
// broadcast first operand into second place, a non-commutative one needs its first operand
// at the result's shape, and at most one operand may be broadcast.
bool BinaryOperandsFit(const std::string& op, const Shape& lhs, const Shape& rhs, const Shape& result);

}  // namespace collage::onednn
