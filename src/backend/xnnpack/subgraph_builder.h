// Builds the XNNPACK subgraph of one runtime step of a partition (partition_steps.h): owns the
// xnn_subgraph_t, maps IR values to XNNPACK value ids (rank-4 values in NHWC, see layout.h),
// keeps static data (constants, repacked weights) alive, and knows which calls leave the
// runtime (external outputs) and which conv2d/dense calls carry a fused bias. The node definers
// of each op family call into it.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

#include "backend/xnnpack/bias_fusion.h"
#include "ir/expr.h"

namespace collage::xnnpack {

// Output bounds meaning "no clamp" for nodes that take output_min / output_max (XNNPACK fuses
// a following clamp into them by narrowing these).
inline constexpr float kNoOutputMin = -std::numeric_limits<float>::infinity();
inline constexpr float kNoOutputMax = std::numeric_limits<float>::infinity();

// Static data handed to XNNPACK; must outlive the runtime. Padded by XNN_EXTRA_BYTES.
using StaticData = std::vector<std::unique_ptr<std::vector<float>>>;

class SubgraphBuilder {
 public:
  // `result_ids`: the external value id of each call whose value leaves the runtime.
  SubgraphBuilder(uint32_t external_value_count, const BiasFusion& fusion,
                  std::unordered_map<const ExprNode*, uint32_t> result_ids);
  ~SubgraphBuilder();
  SubgraphBuilder(const SubgraphBuilder&) = delete;
  SubgraphBuilder& operator=(const SubgraphBuilder&) = delete;

  xnn_subgraph_t subgraph() const { return subgraph_; }

  // Defines `value` (a parameter, or a call another step computes) as external input
  // `external_id`.
  void DefineInput(const ExprNode& value, uint32_t external_id);

  // The value id of an already defined parameter or call.
  uint32_t ValueOf(const Expr& expr) const;

  // A static tensor of XNNPACK shape `shape` holding `data` (already in XNNPACK's layout).
  uint32_t DefineStatic(std::vector<float> data, const Shape& shape);
  // An internal value of XNNPACK shape `shape`.
  uint32_t DefineInternal(const Shape& shape);

  // The value `call` computes, shaped like its checked type in XNNPACK's layout. It is an
  // external output when the call (or the bias add fused into it) is a result of the partition.
  uint32_t DefineResult(const CallNode& call);

  // An operand of a broadcasting node whose result has IR rank `result_rank`. `ir_view` is the
  // operand's IR shape as the op broadcasts it (its own shape, or for nn.bias_add the bias with
  // trailing 1s). Constants are repacked; computed values are reshaped when needed, which the
  // support rules only allow when the reshape keeps the element order.
  uint32_t BroadcastOperand(const Expr& operand, const Shape& ir_view, size_t result_rank);

  // The [output channels] bias fused into this conv2d / dense call, or null.
  const Tensor* FusedBias(const CallNode& call) const;

  StaticData TakeStaticData() { return std::move(static_data_); }

 private:
  xnn_subgraph_t subgraph_ = nullptr;
  const BiasFusion& fusion_;
  std::unordered_map<const ExprNode*, uint32_t> result_ids_;
  std::unordered_map<const ExprNode*, uint32_t> values_;
  StaticData static_data_;
};

}  // namespace collage::xnnpack
