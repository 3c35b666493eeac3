// The link between a model's values and named arrays (the .npz files of --inputs and
// --outputs): parameters are matched by name, results are named "output" (a single
// tensor) or "output0", "output1", ... (the tensors of a tuple result, flattened).
#pragma once

#include <string>
#include <vector>

#include "io/npz.h"
#include "ir/expr.h"
#include "support/value.h"

namespace collage::cli {

// One argument per parameter of `function`, taken from the array of the same name. A
// missing, extra or mistyped array, or a parameter that is not a tensor, is an Error
// naming `file`, the parameter and the expected type.
std::vector<Value> ArgumentsFromArrays(const Function& function, const NamedTensors& arrays, const std::string& file);

NamedTensors NameOutputs(const Value& result);

}  // namespace collage::cli
