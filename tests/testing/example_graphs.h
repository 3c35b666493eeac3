// A corpus of small, varied, well-typed functions for tests that should hold on any graph
// (printer/parser round-trips, structural equality, passes, interpreters).
//
// Together the graphs cover every expression kind, shared nodes, nested functions with
// attributes (a function called twice, a composite inside a partition), tuples, split and
// projections, constants of every dtype with special values (nan, inf, -0.0, subnormal and
// huge floats, integer extremes), attributes of every kind, scalar and empty tensors, and
// parameter names that collide, are empty or need quoting. No node is shared between a
// function and a function nested in it, since the text format prints scopes separately.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/expr.h"

namespace collage::testing {

// (name, function) pairs with unique names; every function has been through InferType.
std::vector<std::pair<std::string, Function>> ExampleGraphs();

}  // namespace collage::testing
