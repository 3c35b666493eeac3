// The ops the onednn backend runs, by family (the primitive builder that lowers them).
#pragma once

#include <optional>
#include <string>

namespace collage::onednn {

enum class OpFamily { kConvolution, kMatmul, kPooling, kEltwise, kBinary, kNormalization, kReshape, kTranspose,
                      kConcat };

// The family of a registered op name, or nullopt when oneDNN does not run it.
std::optional<OpFamily> FamilyOf(const std::string& op);

}  // namespace collage::onednn
