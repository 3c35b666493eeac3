// The post-dominator tree of an IndexedForwardGraph. A node's parent is its immediate
// post-dominator: the least common ancestor, in the tree built so far, of all its
// consumers. Each node also records the "worst" (maximum) pattern kind met on the paths
// to its parent, so FuseOps can tell whether the whole region between them is, say,
// elementwise. The function result and unused nodes have no parent.
#pragma once

#include <optional>
#include <vector>

#include "pass/fuse_ops/indexed_forward_graph.h"

namespace collage {

struct PostDominatorTree {
  struct Node {
    std::optional<size_t> parent;  // index of the immediate post-dominator
    int depth = 1;
    OpPatternKind pattern = OpPatternKind::kElemWise;
  };
  std::vector<Node> nodes;  // by graph node index

  static PostDominatorTree Create(const IndexedForwardGraph& graph);
};

// The larger of two kinds: the less fusable one.
inline OpPatternKind CombinePattern(OpPatternKind lhs, OpPatternKind rhs) {
  return static_cast<int>(lhs) > static_cast<int>(rhs) ? lhs : rhs;
}

}  // namespace collage
