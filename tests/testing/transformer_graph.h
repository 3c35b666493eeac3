// A transformer encoder stack built directly in the IR, shared by the partitioner tests and
// the partitioning benchmark (bench/). Per layer: q/k/v dense + bias, reshape and transpose
// to heads, batch_matmul, scale, mask, softmax, batch_matmul, transpose and reshape back,
// output dense + bias, residual add, layer_norm, a GELU (tanh form) feed-forward of width
// 4 * hidden, residual add and a second layer_norm. Weights are seeded random constants.
#pragma once

#include "ir/expr.h"

namespace collage::testing {

struct TransformerConfig {
  int layers = 24;
  int64_t sequence = 128;
  int64_t hidden = 768;
  int64_t heads = 12;
  // Spell the second layer_norm of each layer out as mean / subtract / multiply / rsqrt ops.
  bool spell_out_second_layer_norm = false;
  // Constants of one shape share one random tensor: fast to build when values do not matter.
  bool share_weights_by_shape = false;
};

Function MakeTransformerEncoder(const TransformerConfig& config);

}  // namespace collage::testing
