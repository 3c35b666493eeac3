// The executable of a native-compiled function: the FuseOps groups of the function run in
// topological order, each as a generated kernel (or, for a group with an op or dtype the
// generator does not handle, through the reference kernels), on tensors that are the
// function's inputs, its outputs, constants held by the executable, or intermediate buffers.
// Intermediate buffers are assigned at compile time by liveness: a buffer is reused by a
// later group once every reader of its previous value has run.
#pragma once

#include <memory>
#include <vector>

#include "backend/backend.h"
#include "backend/native/kernel_cache.h"

namespace collage::native {

// Where a tensor lives while the executable runs.
struct Slot {
  enum class Kind { kInput, kOutput, kConstant, kBuffer };
  Kind kind = Kind::kBuffer;
  size_t index = 0;  // into inputs, outputs, constants or buffers
};

// One group: a generated kernel (args: inputs, constants, outputs) or a reference fallback.
struct Step {
  LoadedKernel kernel;
  Function fallback;           // set when the group runs through the reference kernels
  std::vector<Slot> args;      // the group's parameters, then its constants
  std::vector<Slot> results;   // the group's outputs, tuples flattened
  std::vector<const TensorTypeNode*> result_types;
};

struct ExecutablePlan {
  std::vector<Step> steps;
  std::vector<Tensor> constants;
  std::vector<size_t> buffer_bytes;
  // Function outputs that no step writes in place (parameters, constants, repeated values):
  // copied from `source` after the steps.
  std::vector<std::pair<size_t, Slot>> output_copies;
};

std::unique_ptr<Executable> MakeNativeExecutable(ExecutablePlan plan, int threads);

}  // namespace collage::native
