// Equality constraints for tree patterns. A pattern node used in several places matches each
// place on its own (pattern.h); a predicate from BindsOneExpressionEach accepts a match only
// where each given node is bound to one expression wherever it occurs, so that
// `multiply($x, sigmoid($x))` with $x tied matches x * sigmoid(x) and not a * sigmoid(b).
#pragma once

#include <vector>

#include "pattern/pattern.h"
#include "pattern/pattern_matcher.h"

namespace collage {

MatchPredicate BindsOneExpressionEach(std::vector<Pattern> tied);

}  // namespace collage
