// Code generation of element-wise, broadcast and injective ops as element functions: C++
// statements computing the value of one output element at linear index `i` from the values
// of the op's arguments at computed indices (the composed index map of reshape, transpose,
// broadcast, slicing, concatenation, padding and gathering).
#pragma once

#include <functional>
#include <string>

#include "ir/expr.h"

namespace collage::native {

// The C++ expression of argument `arg`'s value (in its compute type) at the linear index
// given by the C++ expression `index`.
using ArgumentValue = std::function<std::string(size_t arg, const std::string& index)>;

// True when `call` (an op call with a checked type) has an element function here.
bool HasElementFunction(const CallNode& call);

// Statements ending in `return` that compute field `field` of `call` (0 unless the op
// returns a tuple, like split) at linear output index `i`, in the result's compute type.
std::string EmitElementFunction(const CallNode& call, int field, const ArgumentValue& argument);

}  // namespace collage::native
