#include "collage/dataflow_graph.h"

#include <algorithm>

#include "pass/fuse_ops/post_dominator_tree.h"

namespace collage {
namespace {

// The nearest common ancestor of two nodes in the partially built dominator tree.
std::optional<size_t> CommonDominator(const std::vector<DataflowNode>& nodes, const std::vector<int>& depth,
                                      std::optional<size_t> lhs, std::optional<size_t> rhs) {
  while (lhs && rhs && *lhs != *rhs) {
    if (depth[*lhs] >= depth[*rhs]) {
      lhs = nodes[*lhs].dominator;
    } else {
      rhs = nodes[*rhs].dominator;
    }
  }
  return lhs && rhs ? lhs : std::nullopt;
}

}  // namespace

std::vector<PatternMatch> DataflowGraph::FindAllMatches(const Pattern& pattern, const MatchPredicate& predicate) const {
  const std::lock_guard<std::mutex> lock(matcher_->mutex);
  if (matcher_->matcher == nullptr) matcher_->matcher = std::make_unique<PatternMatcher>(body_);
  return matcher_->matcher->FindAll(pattern, predicate);
}

DataflowGraph DataflowGraph::Create(const Expr& body) {
  DataflowGraph graph;
  graph.body_ = body;
  graph.forward_graph_ = IndexedForwardGraph::Create(body);
  const size_t size = graph.forward_graph_.nodes.size();
  graph.nodes_.resize(size);
  for (const auto& forward_node : graph.forward_graph_.nodes) {
    DataflowNode& node = graph.nodes_[forward_node.index];
    node.expr = forward_node.expr;
    node.index = forward_node.index;
    node.pattern = forward_node.pattern;
    node.external = forward_node.extern_ref;
    ForEachChild(*node.expr, [&](const Expr& child) {
      const size_t* input = graph.forward_graph_.index_of.Find(child.get());
      if (input == nullptr) return;
      if (std::find(node.inputs.begin(), node.inputs.end(), *input) == node.inputs.end()) {
        node.inputs.push_back(*input);
      }
    });
    for (size_t input : node.inputs) graph.nodes_[input].outputs.push_back(node.index);
  }
  std::vector<int> depth(size, 0);
  for (DataflowNode& node : graph.nodes_) {
    std::optional<size_t> dominator;
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      dominator = k == 0 ? node.inputs[0] : CommonDominator(graph.nodes_, depth, dominator, node.inputs[k]);
      if (!dominator) break;
    }
    node.dominator = dominator;
    depth[node.index] = dominator ? depth[*dominator] + 1 : 0;
  }
  const PostDominatorTree post_dominators = PostDominatorTree::Create(graph.forward_graph_);
  for (DataflowNode& node : graph.nodes_) node.post_dominator = post_dominators.nodes[node.index].parent;
  return graph;
}

size_t DataflowGraph::IndexOf(const ExprNode* expr) const {
  const size_t* index = forward_graph_.index_of.Find(expr);
  if (index == nullptr) throw Error("DataflowGraph: " + DescribeExpr(*expr) + " is not a node of the graph");
  return *index;
}

bool DataflowGraph::Contains(const ExprNode* expr) const { return forward_graph_.index_of.Contains(expr); }

}  // namespace collage
