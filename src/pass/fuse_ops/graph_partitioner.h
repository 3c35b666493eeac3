// FuseOps' grouping: union-find groups over IndexedForwardGraph nodes, grown by the three
// fusion phases of FuseOps. Each node tries to join the group of its immediate
// post-dominator when every path between them satisfies the phase's condition
// (CheckPath) and the merged group stays within max_fuse_depth nodes; CommitFuse then
// merges every node on those paths into the post-dominator's group.
#pragma once

#include <functional>
#include <vector>

#include "pass/fuse_ops/post_dominator_tree.h"

namespace collage {

class GraphPartitioner {
 public:
  struct Group {
    size_t parent;  // union-find parent (itself for a root)
    OpPatternKind pattern;
    int num_nodes = 1;
    std::optional<size_t> anchor;  // the OutEWiseFusable node of the group, if any
  };

  GraphPartitioner(const IndexedForwardGraph& graph, int max_fuse_depth);
  // Runs the phases; with `fuse` false every node stays in its own group.
  void Partition(bool fuse);
  // The root group index of a node.
  size_t GroupOf(size_t node);

 private:
  using PathCondition = std::function<bool(OpPatternKind kind, bool is_sink)>;

  void RunPhase(const PostDominatorTree& tree, int phase);
  bool CheckPath(size_t source, size_t sink, const PathCondition& condition);
  void CommitFuse(size_t source, size_t sink);
  int CountFusedNodesWithNewChild(size_t child, size_t dominator);
  void MergeInto(size_t child_group, size_t parent_group);
  // The nodes reachable from `source`'s consumers up to and including `sink`.
  std::vector<size_t> NodesOnPathsTo(size_t source, size_t sink) const;

  const IndexedForwardGraph& graph_;
  int max_fuse_depth_;
  std::vector<Group> groups_;  // by node index
};

}  // namespace collage
