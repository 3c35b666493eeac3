// Code generation of anchor ops: ops computed by a kernel template of the runtime headers
// (GEMM-based dense/matmul/conv2d, direct depthwise and transposed convolution, pooling,
// softmax/masked-softmax/layer_norm/rms_norm row kernels, fused attention and
// squeeze-and-excitation, reductions) rather than element by element. The generated
// call hands the template the anchor's inputs and an epilogue functor `epilogue(i, value)`
// that receives each output element (linear index i) once, so fused element-wise consumers
// are computed in the anchor's output loop.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"

namespace collage::native {

enum class AnchorInput {
  kPointer,   // a `const T*` to the materialized argument
  kAccessor,  // a functor `value(j)` of the argument's element j (fuses prologues)
};

// True when `call` (an op call with a checked type) has an anchor kernel.
bool HasAnchorKernel(const CallNode& call);
// How the kernel reads its arguments.
AnchorInput AnchorInputKind(const CallNode& call);

// The length of the output rows that `call`'s kernel hands its epilogue as a
// native::RowIndex (the matrix products: whole rows of the row-major result, so a per-column
// operand's index needs no division), or 0 when the epilogue takes plain linear indices.
int64_t EpilogueRowColumns(const CallNode& call);

// One C++ statement computing `call`: `inputs[k]` is the pointer or accessor expression of
// argument k, `epilogue` the functor's expression, `threads` the thread-count expression.
// With `packed_weights` (a call that TakesPackedWeights, see packed_weights.h), inputs[1]
// points to the PackWeights form of its constant B operand.
std::string EmitAnchorCall(const CallNode& call, const std::vector<std::string>& inputs, const std::string& epilogue,
                           const std::string& threads, bool packed_weights = false);

}  // namespace collage::native
