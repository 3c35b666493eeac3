// What a backend declares it can run. Greedy (BYOC) partitioning and Collage's candidate
// generation read only this, never a backend's name or code.
//
// A backend declares any mix of:
//   supports_op           an op predicate: single op calls it runs by itself;
//   patterns              a pattern table: labelled patterns (with optional predicates on the
//                         match) it runs as one fused unit, e.g. "onednn.conv2d_bias_relu";
//   fuses_like_fuse_ops   it is a code generator that runs any FuseOps-style group.
// and the layouts its partitions can take and give their rank-4 tensors in
// (backend/boundary_layout.h), plain first, with any mixed pairs, and the reduced precisions (element types other
// than f32) it can compute ops in, with the ops it computes in each (backend/precision.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "pattern/pattern.h"
#include "pattern/pattern_matcher.h"
#include "support/partition_layouts.h"
#include "support/tensor_format.h"

namespace collage {

// One entry of a backend's pattern table. The label starts with "<backend>.".
struct BackendPattern {
  std::string label;
  Pattern pattern;
  MatchPredicate predicate;  // empty: every match is accepted
};

struct SupportDeclaration {
  std::string backend;
  // True when the backend runs this (type-checked) op call by itself.
  std::function<bool(const CallNode& call)> supports_op;
  std::vector<BackendPattern> patterns;
  bool fuses_like_fuse_ops = false;
  std::vector<Layout> boundary_layouts = {Layout::kPlain};
  // Pairs of those it also takes mixed: parameters in one layout, results in the other.
  std::vector<PartitionLayouts> mixed_boundary_layouts = {};
  // Element types other than f32 some of its ops compute in (empty: f32 only), and whether it
  // computes this op call in `precision` (one of them). Declared only where the machine runs
  // them without a reference or emulated fallback.
  std::vector<DType> reduced_precisions = {};
  std::function<bool(const CallNode& call, DType precision)> supports_precision = nullptr;

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
