#include "pass/fuse_ops/graph_partitioner.h"

#include <unordered_set>

namespace collage {

GraphPartitioner::GraphPartitioner(const IndexedForwardGraph& graph, int max_fuse_depth)
    : graph_(graph), max_fuse_depth_(max_fuse_depth) {
  for (const auto& node : graph.nodes) {
    Group group{node.index, node.pattern, 1, std::nullopt};
    if (node.pattern == OpPatternKind::kOutEWiseFusable) group.anchor = node.index;
    groups_.push_back(group);
  }
}

size_t GraphPartitioner::GroupOf(size_t node) {
  size_t root = node;
  while (groups_[root].parent != root) root = groups_[root].parent;
  while (groups_[node].parent != root) {  // path compression
    size_t next = groups_[node].parent;
    groups_[node].parent = root;
    node = next;
  }
  return root;
}

void GraphPartitioner::Partition(bool fuse) {
  if (!fuse) return;
  PostDominatorTree tree = PostDominatorTree::Create(graph_);
  for (int phase = 0; phase < 3; ++phase) RunPhase(tree, phase);
}

std::vector<size_t> GraphPartitioner::NodesOnPathsTo(size_t source, size_t sink) const {
  std::vector<size_t> found;
  std::unordered_set<size_t> seen;
  std::vector<size_t> stack;
  for (const auto& edge : graph_.nodes[source].outputs) stack.push_back(edge.consumer);
  while (!stack.empty()) {
    size_t node = stack.back();
    stack.pop_back();
    if (!seen.insert(node).second) continue;
    found.push_back(node);
    if (node == sink) continue;
    for (const auto& edge : graph_.nodes[node].outputs) stack.push_back(edge.consumer);
  }
  return found;
}

bool GraphPartitioner::CheckPath(size_t source, size_t sink, const PathCondition& condition) {
  for (size_t node : NodesOnPathsTo(source, sink)) {
    if (!condition(groups_[GroupOf(node)].pattern, node == sink)) return false;
  }
  return true;
}

void GraphPartitioner::MergeInto(size_t child_group, size_t parent_group) {
  child_group = GroupOf(child_group);
  parent_group = GroupOf(parent_group);
  if (child_group == parent_group) return;
  Group& child = groups_[child_group];
  Group& parent = groups_[parent_group];
  parent.num_nodes += child.num_nodes;
  child.parent = parent_group;
  if (child.anchor) {
    parent.anchor = child.anchor;
    parent.pattern = CombinePattern(child.pattern, parent.pattern);
  }
}

void GraphPartitioner::CommitFuse(size_t source, size_t sink) {
  const size_t target = GroupOf(sink);
  MergeInto(source, target);
  for (size_t node : NodesOnPathsTo(source, sink)) {
    if (node != sink) MergeInto(node, target);
  }
}

int GraphPartitioner::CountFusedNodesWithNewChild(size_t child, size_t dominator) {
  std::unordered_set<size_t> counted_groups{GroupOf(dominator)};
  int total = groups_[GroupOf(dominator)].num_nodes;
  std::vector<size_t> nodes = NodesOnPathsTo(child, dominator);
  nodes.push_back(child);
  for (size_t node : nodes) {
    if (counted_groups.insert(GroupOf(node)).second) total += groups_[GroupOf(node)].num_nodes;
  }
  return total;
}

void GraphPartitioner::RunPhase(const PostDominatorTree& tree, int phase) {
  using K = OpPatternKind;
  auto at_most = [](K kind, K limit) { return static_cast<int>(kind) <= static_cast<int>(limit); };
  for (size_t index = 0; index < graph_.nodes.size(); ++index) {
    const PostDominatorTree::Node& dominator = tree.nodes[index];
    const K pattern = groups_[index].pattern;  // the node's own kind, as merged into it
    if (pattern == K::kOpaque || !dominator.parent) continue;
    const size_t sink = *dominator.parent;
    if (CountFusedNodesWithNewChild(index, sink) > max_fuse_depth_) continue;

    if (phase == 2) {
      // Injective ops fuse into an intermediate tuple that already flows into injective ops.
      if (!at_most(pattern, K::kInjective)) continue;
      const K sink_pattern = groups_[sink].pattern;
      const K sink_root_pattern = groups_[GroupOf(sink)].pattern;
      if (sink_root_pattern == K::kTuple) continue;
      if (sink_pattern == K::kTuple && at_most(sink_root_pattern, K::kInjective)) {
        auto condition = [&](K kind, bool) { return at_most(kind, K::kInjective); };
        if (CheckPath(index, sink, condition)) CommitFuse(index, sink);
      }
      continue;
    }
    if (GroupOf(index) == GroupOf(sink)) continue;
    if (groups_[sink].pattern == K::kTuple) continue;  // never into a tuple in phases 0-1

    if (pattern == K::kOutEWiseFusable) {
      // An anchor (conv, dense) takes an elementwise epilogue up to its post-dominator.
      if (phase != 0 || dominator.pattern != K::kElemWise) continue;
      auto condition = [&](K kind, bool) { return at_most(kind, K::kBroadcast); };
      if (CheckPath(index, sink, condition)) CommitFuse(index, sink);
    } else if (at_most(pattern, K::kBroadcast)) {
      if (!(at_most(dominator.pattern, K::kInjective) || dominator.pattern == K::kCommReduce)) continue;
      auto condition = [&](K kind, bool is_sink) {
        if (!is_sink) return at_most(kind, K::kInjective);
        return at_most(kind, K::kInjective) || kind == K::kCommReduce || kind == K::kOutEWiseFusable;
      };
      if (CheckPath(index, sink, condition)) CommitFuse(index, sink);
    } else if (pattern == K::kInjective || pattern == K::kTuple) {
      if (phase != 1) continue;  // after phase 0, so anchors have finished fusing
      auto condition = [&](K kind, bool) { return at_most(kind, K::kInjective); };
      if (CheckPath(index, sink, condition)) CommitFuse(index, sink);
    }
    // CommReduce nodes only ever receive fusion.
  }
}

}  // namespace collage
