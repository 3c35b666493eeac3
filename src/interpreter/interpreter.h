// The reference interpreter: evaluates a type-checked function node by node with the
// ops' reference kernels. It is the correctness oracle for every backend and pass, so it
// stays simple: no fusion, no memory reuse, no threads.
#pragma once

#include <functional>
#include <vector>

#include "ir/expr.h"
#include "ir/module.h"
#include "support/value.h"

namespace collage {

// Evaluates `function` on `args` (one per parameter, matching the parameter types).
// Runs InferType first if the function is not typed yet. Throws Error naming the
// parameter for a missing or mistyped argument, and the node for a failing kernel.
Value Evaluate(const Function& function, const std::vector<Value>& args);

// Called with every value node of the evaluated function's body (its parameters included;
// callees and nodes inside called functions not) and the value it took, once per node.
using ValueObserver = std::function<void(const ExprNode& node, const Value& value)>;
// Evaluate, showing each value to `observe` as it is computed.
Value Evaluate(const Function& function, const std::vector<Value>& args, const ValueObserver& observe);

// Seeded random arguments for every parameter of `function`: floats uniform in [-1, 1),
// integers in [0, 10], bools as coin flips. Parameter i uses seed `seed + i`.
std::vector<Value> RandomArguments(const Function& function, uint64_t seed);

}  // namespace collage
