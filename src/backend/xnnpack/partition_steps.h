// A partition as the XNNPACK executable runs it: a sequence of steps, each an XNNPACK runtime
// over consecutive calls of the body (in post order) or one host op (host_binary_ops.h,
// host_pooling.h, host_depthwise.h, host_silu.h), and where every value lives that passes
// between steps or leaves the partition. Without host ops the plan is one runtime over the
// whole body, reading the partition's inputs and writing its outputs.
//
// Invariants: a value a later step reads lives in a scratch buffer (never in an output buffer,
// which may be a staging copy); a scratch buffer is handed to another value only after the last
// step reading its value, never within a step; a bias-fused producer (bias_fusion.h) is defined
// with its add, in the add's step; a host step stands for its last call and also computes the
// calls it absorbs (a SiLU's sigmoid; a depthwise convolution's relu, clip or SiLU and the
// expanding convolution before it), whose values nothing outside the step reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "backend/xnnpack/bias_fusion.h"
#include "backend/xnnpack/host_binary_ops.h"
#include "backend/xnnpack/host_depthwise.h"
#include "backend/xnnpack/host_pooling.h"
#include "backend/xnnpack/host_silu.h"
#include "ir/expr.h"
#include "support/tensor.h"

namespace collage::xnnpack {

// A buffer the executable resolves on each run: the partition's input or output `index` (in
// XNNPACK's layout, possibly a staging copy), or its own scratch buffer `index`.
struct BufferRef {
  enum class Kind { kInput, kOutput, kScratch };
  Kind kind = Kind::kInput;
  size_t index = 0;
};

// Where output i of the partition comes from.
struct OutputSource {
  enum class Kind {
    kComputed,   // `buffer`: the output's own, or a scratch buffer copied out after the run
    kParameter,  // a copy of input `index`
    kConstant,   // a copy of `constant`
    kSameAs,     // a copy of the earlier output `index`
  };
  Kind kind = Kind::kComputed;
  BufferRef buffer;
  size_t index = 0;
  Tensor constant;
  Shape shape;  // the IR shape
};

// An XNNPACK runtime over `calls`. External value k is inputs[k] for k < inputs.size(), then
// outputs[k - inputs.size()]; each is keyed by the node that computes it (a parameter, a call,
// or the add a fused producer is folded into).
struct RuntimeStep {
  std::vector<const CallNode*> calls;
  std::vector<std::pair<const ExprNode*, BufferRef>> inputs;
  std::vector<std::pair<const ExprNode*, BufferRef>> outputs;
};

// A host op: a binary op (`lhs` is the operand of the result's shape when the other is a
// gate), or a global average pooling, depthwise convolution (of an expansion computed on the
// fly, or not) or SiLU of `lhs` (`rhs` unused).
struct HostStep {
  enum class Kind { kBinary, kGlobalAveragePool, kDepthwise, kExpandedDepthwise, kSilu };
  Kind kind = Kind::kBinary;
  HostBinary binary;
  HostGlobalAveragePool pool;
  HostDepthwise depthwise;
  HostExpandedDepthwise expanded;
  HostSilu silu;
  BufferRef lhs, rhs, out;
};

struct PartitionStep {
  bool is_host = false;
  RuntimeStep runtime;  // when !is_host
  HostStep host;        // when is_host
};

struct PartitionSteps {
  std::vector<PartitionStep> steps;
  std::vector<int64_t> scratch_elements;  // the size of each scratch buffer, XNNPACK's padding aside
  std::vector<OutputSource> outputs;
};

// `post_order` and `results` as compile_partition.cc reads the body (projections forwarded,
// results flattened); `fusion` from PlanBiasFusion over them.
PartitionSteps PlanPartitionSteps(const Function& function, const std::vector<Expr>& post_order,
                                  const std::vector<Expr>& results, const BiasFusion& fusion);

}  // namespace collage::xnnpack
