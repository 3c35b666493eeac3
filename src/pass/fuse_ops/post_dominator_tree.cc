#include "pass/fuse_ops/post_dominator_tree.h"

namespace collage {
namespace {

// Climbs from two tree nodes to their least common ancestor, folding the patterns of the
// nodes left behind into `pattern`. nullopt when they have none.
std::optional<size_t> LeastCommonAncestor(const PostDominatorTree& tree, std::optional<size_t> lhs,
                                          std::optional<size_t> rhs, OpPatternKind* pattern) {
  while (lhs != rhs) {
    if (!lhs || !rhs) return std::nullopt;
    const auto& left = tree.nodes[*lhs];
    const auto& right = tree.nodes[*rhs];
    if (left.depth < right.depth) {
      *pattern = CombinePattern(*pattern, right.pattern);
      rhs = right.parent;
    } else if (right.depth < left.depth) {
      *pattern = CombinePattern(*pattern, left.pattern);
      lhs = left.parent;
    } else {
      *pattern = CombinePattern(*pattern, CombinePattern(left.pattern, right.pattern));
      lhs = left.parent;
      rhs = right.parent;
    }
  }
  return lhs;
}

}  // namespace

PostDominatorTree PostDominatorTree::Create(const IndexedForwardGraph& graph) {
  PostDominatorTree tree;
  tree.nodes.resize(graph.nodes.size());
  // Consumers come later in post-DFS order, so walking backwards sees them first.
  for (size_t i = graph.nodes.size(); i-- > 0;) {
    const IndexedForwardGraph::Node& graph_node = graph.nodes[i];
    Node& node = tree.nodes[i];
    if (graph_node.extern_ref || graph_node.outputs.empty()) {
      node = Node{std::nullopt, 1, OpPatternKind::kOpaque};
      continue;
    }
    OpPatternKind pattern = OpPatternKind::kElemWise;
    std::optional<size_t> parent = graph_node.outputs[0].consumer;
    pattern = CombinePattern(pattern, graph_node.outputs[0].pattern);
    for (size_t k = 1; k < graph_node.outputs.size(); ++k) {
      parent = LeastCommonAncestor(tree, parent, graph_node.outputs[k].consumer, &pattern);
      pattern = CombinePattern(pattern, graph_node.outputs[k].pattern);
    }
    node.parent = parent;
    node.depth = parent ? tree.nodes[*parent].depth + 1 : 1;
    node.pattern = pattern;
  }
  return tree;
}

}  // namespace collage
