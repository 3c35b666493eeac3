// Attention, masked softmax and RMS norm as torch exports them, in the text IR: the decomposed
// forms the fused native kernels replace, shared by the native tests and the native benchmark
// (bench/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collage::testing {

enum class MaskKind {
  kNone,
  kAdditive,  // an f32 mask added to the logits
  kSelect,    // where(mask, -10000, logits) with a bool mask
};

struct AttentionShape {
  std::string name;
  int64_t batch, heads, queries, keys, depth;
  MaskKind mask;
};

// GPT-style attention over projected query, key and value rows (batch, tokens, heads * depth):
// head splits by reshape and transpose, the query-key product divided by `divisor`, the mask,
// softmax, the product with the values and the head merge. Parameters %q, %k, %v[, %mask (queries, keys)].
std::string AttentionText(const AttentionShape& shape, double divisor);

struct SoftmaxShape {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<int64_t> mask_shape;
  MaskKind mask;
};

// softmax(%x / divisor, masked) over the last axis. Parameters %x[, %mask].
std::string MaskedSoftmaxText(const SoftmaxShape& shape, double divisor);

// x * rsqrt(mean(x^2, last axis) + epsilon) * gamma over %x of `shape`, with the constant
// gamma[c] = 0.5 + c * gamma_step.
std::string RmsNormText(const std::vector<int64_t>& shape, const std::string& epsilon, double gamma_step);

struct SqueezeExcitationShape {
  std::string name;
  int64_t samples, channels, height, width, reduced;
  bool silu;        // the activation between the layers: x * sigmoid(x), else relu
  bool hard_gate;   // clip(x / 6 + gate_offset, 0, 1), else sigmoid
};

// torchvision's SqueezeExcitation as exported: global_avg_pool2d, 1x1 conv2d + bias_add, the
// activation, 1x1 conv2d + bias_add, the gate, multiply by %x. Weights are seeded constants;
// `gate_offset` is the hard gate's offset (0.5 for hard-sigmoid).
std::string SqueezeExcitationText(const SqueezeExcitationShape& shape, double gate_offset = 0.5);

}  // namespace collage::testing
