// The link between a model's parameters and named arrays (the .npz file of --inputs):
// parameters are matched by name. Results are named by pipeline/output_names.h.
#pragma once

#include <string>
#include <vector>

#include "io/npz.h"
#include "ir/expr.h"
#include "support/value.h"

namespace collage {

// One argument per parameter of `function`, taken from the array of the same name. A
// missing, extra or mistyped array, or a parameter that is not a tensor, is an Error
// naming `file`, the parameter and the expected type.
std::vector<Value> ArgumentsFromArrays(const Function& function, const NamedTensors& arrays, const std::string& file);

}  // namespace collage
