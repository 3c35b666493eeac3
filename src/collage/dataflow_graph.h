// The dataflow graph Collage searches over: the nodes of one (type-checked) function body
// in post-DFS order, so a node's index is larger than the index of every node it depends on.
//
// Nested functions are not entered, and op or function callees are not nodes (they are
// part of their call). Indices coincide with those of the IndexedForwardGraph kept here,
// which phase 4 hands to OutlineGroups.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "collage/index_set.h"
#include "ir/expr.h"
#include "ir/op_registry.h"
#include "pass/fuse_ops/indexed_forward_graph.h"
#include "pattern/pattern_matcher.h"

namespace collage {

struct DataflowNode {
  Expr expr;
  size_t index = 0;
  std::vector<size_t> inputs;   // distinct producers, in operand order
  std::vector<size_t> outputs;  // distinct consumers, in increasing index order
  OpPatternKind pattern = OpPatternKind::kOpaque;
  bool external = false;        // the body result: used outside the body
  std::optional<size_t> dominator;       // immediate dominator; none for sources
  std::optional<size_t> post_dominator;  // immediate post-dominator; none for the result
};

class DataflowGraph {
 public:
  // Requires a type-checked body.
  static DataflowGraph Create(const Expr& body);

  size_t size() const { return nodes_.size(); }
  const DataflowNode& node(size_t index) const { return nodes_.at(index); }
  const std::vector<DataflowNode>& nodes() const { return nodes_; }
  // Throws Error when the expression is not a node of this graph.
  size_t IndexOf(const ExprNode* expr) const;
  bool Contains(const ExprNode* expr) const;
  const Expr& body() const { return body_; }
  const IndexedForwardGraph& forward_graph() const { return forward_graph_; }
  // Every match of `pattern` in the body (PatternMatcher::FindAll), by one matcher made on first
  // use and shared by every pattern rule and every copy of the graph, so the body is walked once
  // and the match memo is shared. Safe to call from several threads: the calls take turns.
  std::vector<PatternMatch> FindAllMatches(const Pattern& pattern, const MatchPredicate& predicate) const;

 private:
  Expr body_;
  IndexedForwardGraph forward_graph_;
  std::vector<DataflowNode> nodes_;
  struct SharedMatcher {
    std::mutex mutex;
    std::unique_ptr<PatternMatcher> matcher;  // guarded by `mutex`
  };
  std::shared_ptr<SharedMatcher> matcher_ = std::make_shared<SharedMatcher>();
};

}  // namespace collage
