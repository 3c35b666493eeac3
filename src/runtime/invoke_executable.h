// Running a compiled partition on run-time values: allocates the outputs the function's
// result type calls for, runs the executable and rebuilds tuples.
#pragma once

#include <vector>

#include "backend/backend.h"
#include "support/value.h"

namespace collage {

// The tensor types of `type` with tuples flattened depth-first; throws Error naming any other
// type.
std::vector<const TensorTypeNode*> FlattenedTensorTypes(const Type& type);
// Zero-filled tensors for `type` with tuples flattened depth-first.
std::vector<Tensor> AllocateFlattened(const Type& type);
// Zero-filled buffers for a partition function's flattened results, in its boundary layout.
std::vector<Tensor> AllocateResults(const Function& function);
// Rebuilds a value of `type` from its flattened tensors (the inverse of Value::Flatten).
Value Unflatten(const Type& type, const std::vector<Tensor>& tensors);

// Runs `executable`, compiled from the type-checked `function`, on one tensor value per
// parameter, converting the arguments into the function's boundary layout and the results
// back to plain. Throws Error when an argument is a tuple or has the wrong type.
Value InvokeExecutable(Executable& executable, const Function& function, const std::vector<Value>& args);

}  // namespace collage
