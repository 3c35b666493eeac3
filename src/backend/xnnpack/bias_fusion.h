// Bias folding: an nn.conv2d, nn.conv2d_transpose or nn.dense call whose only user adds a constant that varies
// only along the output channels (nn.bias_add, or add with a [O, 1, 1] / [O] constant) is
// defined as one XNNPACK node with that bias, and the add disappears. XNNPACK then fuses a
// following relu / clip into the same node itself.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "support/tensor.h"

namespace collage::xnnpack {

struct BiasFusion {
  // conv2d / dense call -> its bias, a 1-D tensor of its output channels.
  std::unordered_map<const ExprNode*, Tensor> bias_of_producer;
  // the add absorbed -> the conv2d / dense call that computes it.
  std::unordered_map<const ExprNode*, const CallNode*> producer_of_add;
  // the conv2d / dense call -> the add it computes.
  std::unordered_map<const ExprNode*, const ExprNode*> add_of_producer;
};

// `post_order`: the body's nodes; `uses`: from CountUses.
BiasFusion PlanBiasFusion(const std::vector<Expr>& post_order, const std::unordered_map<const ExprNode*, int>& uses);

}  // namespace collage::xnnpack
