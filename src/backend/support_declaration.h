// What a backend declares it can run. Greedy (BYOC) partitioning and Collage's candidate
// generation read only this, never a backend's name or code.
#pragma once

#include <functional>
#include <string>

#include "ir/expr.h"

namespace collage {

struct SupportDeclaration {
  std::string backend;
  // True when the backend runs this (type-checked) op call by itself.
  std::function<bool(const CallNode& call)> supports_op;

  // A call to a Composite function belongs to the backend whose name prefixes its label
  // ("onednn.conv2d_bias_relu" -> "onednn"): MergeComposite made it from that backend's table.
  bool SupportsComposite(const std::string& label) const {
    return label.size() > backend.size() && label.compare(0, backend.size(), backend) == 0 &&
           label[backend.size()] == '.';
  }
  bool Supports(const CallNode& call) const {
    if (call.op() != nullptr) return supports_op && supports_op(call);
    const auto* function = As<FunctionNode>(call.callee);
    return function && function->attrs.Has(attr::kComposite) &&
           SupportsComposite(function->attrs.GetString(attr::kComposite));
  }
};

}  // namespace collage
