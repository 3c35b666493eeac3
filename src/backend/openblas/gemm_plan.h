// Lowering an OpenBLAS partition to a list of sgemm calls. Every nn.dense, nn.matmul and
// nn.batch_matmul becomes one GemmStep (a batch of row-major products with per-batch operand
// offsets for broadcast batch dimensions); a bias added to its result (nn.bias_add on the
// last axis, or add of a constant holding one value per output column) is fused as the
// step's epilogue: the output is pre-filled with the bias and sgemm accumulates (beta = 1).
#pragma once

#include <cstdint>
#include <vector>

#include "backend/flat_partition.h"

namespace collage::openblas {

struct GemmStep {
  int a = -1;  // value ids of the operands and the result
  int b = -1;
  int output = -1;
  int64_t rows = 0;     // M
  int64_t depth = 0;    // K
  int64_t columns = 0;  // N
  bool transpose_b = false;  // b is N x K
  std::vector<int64_t> a_offsets;  // per batch, in elements
  std::vector<int64_t> b_offsets;
  Tensor bias;  // N values, or undefined
};

// Throws Error ("openblas: ...") for any op other than the three products and their bias,
// for non-f32 tensors and for a bias that is not one value per output column.
std::vector<GemmStep> PlanGemms(const FlatPartition& partition);

}  // namespace collage::openblas
