// Prints patterns in the text syntax of pattern_parser.h. ParsePattern(PatternToString(p))
// prints identically to p (and matches what p matches). Sub-patterns print inline.
#pragma once

#include <string>
#include <vector>

#include "pattern/pattern.h"

namespace collage {

// e.g. "nn.relu(add(nn.conv2d{groups=1}(*, const), const))".
std::string PatternToString(const Pattern& pattern);
// One "label := pattern" line per entry.
std::string PatternTableToString(const std::vector<LabelledPattern>& table);

}  // namespace collage
