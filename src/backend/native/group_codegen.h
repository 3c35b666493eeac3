// Code generation of one FuseOps group (a Primitive function) into one C++ kernel:
//
//   extern "C" const char* <symbol>(void* const* args, int threads);
//
// args holds one pointer per function parameter, then per constant of the group (in the
// order of GeneratedKernel::constants), then per output tensor (tuples flattened). The kernel
// returns null or a static error message.
//
// Plan: anchors (see anchor_codegen.h) run in topological order; an anchor's pointer inputs
// that are not parameters or constants are first materialized into scratch buffers by an
// element loop; each output whose element function reaches exactly one anchor, through index
// maps that are the identity on linear indices (element-wise ops, reshapes, broadcasts of the
// other operands), is computed in that anchor's epilogue; every other output is computed by a
// final element loop. Element functions are inlined member functions of a per-kernel struct.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"

namespace collage::native {

struct GeneratedKernel {
  std::string symbol;
  std::string source;  // the kernel's definitions; includes come from the translation unit
  std::vector<Constant> constants;
};

// True when every op of `group` (and every dtype it uses) has a generator.
bool CanGenerateGroup(const Function& group);

// Throws Error when the group cannot be generated (CanGenerateGroup false).
// `param_constants[p]`, when given and not null, is the constant that parameter p is always
// bound to (its argument in the fused function): the kernel may read it in a prepared form
// (packed GEMM weights), passed as one more constant.
GeneratedKernel GenerateGroupKernel(const Function& group, const std::string& symbol,
                                    const std::vector<const ConstantNode*>& param_constants = {});

}  // namespace collage::native
