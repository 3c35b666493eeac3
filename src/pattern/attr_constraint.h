// Attribute constraints of patterns: when an expression's attributes satisfy the attributes
// a pattern requires.
#pragma once

#include "ir/attrs.h"

namespace collage {

// Whether `actual` has every attribute of `required` with an equal value. Numbers compare by
// value across int and float kinds (groups=1 matches 1 and 1.0), lists element-wise (an empty
// list matches an empty list of either kind); strings compare exactly.
bool AttrsSatisfy(const Attrs& actual, const Attrs& required);

}  // namespace collage
