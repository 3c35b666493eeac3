// Outlining: replaces groups of nodes of a function body by calls to new functions.
// Shared by FuseOps (groups become Primitive kernels) and BYOC partitioning (regions
// become Compiler=<backend> functions).
//
// A group's inputs (operands produced outside it) become the new function's parameters,
// except constants when `inline_constants` is set, which stay inside the function. A group
// with one output is replaced by the call; with several, the function returns a tuple and
// each output is replaced by a projection of the call.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "ir/attrs.h"
#include "pass/fuse_ops/indexed_forward_graph.h"

namespace collage {

struct OutlineOptions {
  bool inline_constants = false;
  // Attributes of the function made for a group, given the group's key; called once per
  // group, in the order the groups are outlined (a dependency order of the groups).
  std::function<Attrs(size_t group_key)> function_attrs;
  // When set, receives one entry per graph node: the expression carrying that node's value in
  // the new body (the rebuilt node, or the call or projection standing for a group output),
  // or null for a group member used only inside its group.
  std::vector<Expr>* new_value_of = nullptr;
};

// `group_of[i]` is the group key of graph node i, or nullopt to keep the node as it is.
// Returns the new body.
Expr OutlineGroups(const IndexedForwardGraph& graph, const std::vector<std::optional<size_t>>& group_of,
                   const OutlineOptions& options);

}  // namespace collage
