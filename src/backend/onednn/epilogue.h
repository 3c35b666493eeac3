// Post-op fusion: what follows a convolution, a matrix product or a binary op and is computed
// by the same primitive. Starting at the anchor's result, the chain goes on while the current
// result has a single user that is
//   - a bias (first only): nn.bias_add on the channel axis, or add of a constant holding one
//     value per channel (shape (C), (C, 1, 1), (1, C, 1, 1) for NCHW; (N) or (1, N) for products);
//   - a residual add of a tensor of the result's shape: a sum post-op (at most one);
//   - a unary op with an eltwise algorithm (relu, gelu, sigmoid, tanh, clip, ...).
// The fused primitive is emitted where the last absorbed call was, so a residual computed
// after the anchor is ready.
#pragma once

#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/onednn/eltwise.h"
#include "backend/onednn/lowering.h"

namespace collage::onednn {

struct PostOp {
  bool is_sum = false;  // else an eltwise
  EltwiseSpec eltwise;
  int addend = -1;  // sum: the value added
};

struct Epilogue {
  int bias = -1;  // constant value id, or -1
  std::vector<PostOp> post_ops;
  int result = -1;         // the value the fused primitive computes
  std::vector<int> calls;  // indices of the absorbed calls, in order
  // The sum may overwrite its addend's buffer although other calls read the addend: they all
  // run before the fused primitive (decided by the partition's lowering plan).
  bool sum_in_place = false;

  // The value the sum post-op adds, or -1.
  int SumAddend() const;
};

// Which post-ops an anchor's primitive can take after its bias.
enum class FusedPostOps { kNone, kEltwise, kEltwiseAndSum };

// The epilogue of call `anchor`, whose result has its channels on axis `channel_axis`
// (1 for NCHW convolutions, the last axis for products; -1: no bias can be fused). It stops
// before a call that `fused_elsewhere` says belongs to another anchor's epilogue, and at the
// first post-op that `post_ops` does not allow.
Epilogue CollectEpilogue(const FlatPartition& partition, int anchor, int channel_axis,
                         const std::vector<bool>& fused_elsewhere,
                         FusedPostOps post_ops = FusedPostOps::kEltwiseAndSum);

// Appends the epilogue's sum and eltwise post-ops (not its bias) to `post_ops`.
void AppendPostOps(const Epilogue& epilogue, dnnl::post_ops& post_ops);
dnnl::primitive_attr MakeAttr(const Epilogue& epilogue);

// The memory the fused primitive writes its result into, given the layout it chose. With a
// sum post-op it must already hold the addend: the addend's own buffer when it is a scratch
// result read only here or by calls that ran before (`sum_in_place`): computed in place; else
// a copy reordered into it.
memory PrepareDestination(Lowering& lowering, const Epilogue& epilogue, const memory::desc& desc);

}  // namespace collage::onednn
