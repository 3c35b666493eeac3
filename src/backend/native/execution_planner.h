// Turns a function into an ExecutablePlan: FuseOps groups it, generates a kernel per group
// (or marks the group for the reference fallback), maps every tensor to a slot and assigns
// intermediate buffers by liveness (best fit among the free buffers). The kernels are
// returned separately so that many functions' kernels can be compiled in one batch.
#pragma once

#include <vector>

#include "backend/native/group_codegen.h"
#include "backend/native/native_executable.h"

namespace collage::native {

struct PlannedFunction {
  ExecutablePlan plan;
  std::vector<GeneratedKernel> kernels;  // kernels[k] belongs to plan.steps[kernel_steps[k]]
  std::vector<size_t> kernel_steps;
};

// Throws Error when the function cannot be compiled (e.g. a tuple parameter).
PlannedFunction PlanFunction(const Function& function);

}  // namespace collage::native
