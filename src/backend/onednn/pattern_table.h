// The onednn pattern table: the fused units post-op fusion computes as one primitive.
#pragma once

#include <string>
#include <vector>

#include "declaration/support_declaration.h"

namespace collage::onednn {

std::vector<BackendPattern> PatternTable();

// The decomposed forms (pass/fused_forms) whose fused ops oneDNN computes: the table offers
// them and Compile fuses them before lowering.
const std::vector<std::string>& FusedForms();

}  // namespace collage::onednn
