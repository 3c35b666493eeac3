// The onednn pattern table: the fused units post-op fusion computes as one primitive.
#pragma once

#include <vector>

#include "declaration/support_declaration.h"

namespace collage::onednn {

std::vector<BackendPattern> PatternTable();

}  // namespace collage::onednn
