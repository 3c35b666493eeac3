// The pattern matcher: finds EVERY match of a pattern in a graph, overlapping ones included,
// as Collage needs all candidates.
//
// A match is rooted at one dataflow node (anything but an op or a function node) and records:
//   inside    the nodes the match covers: each call, tuple and projection matched by a call,
//             tuple or projection pattern, and the path nodes of a dominator pattern (its
//             parent and child are inside when their own patterns make them so). Ops
//             (callees) are never inside. Wildcard, constant and variable patterns never make
//             a node inside; what they match is an input.
//   inputs    what the leaf patterns (wildcard, constant, var) matched in argument, field or
//             tuple position, in pattern order (left to right, depth first), without duplicates
//             and without nodes that are inside; then the constants a dominator's path uses.
//             Whatever a callee pattern matches is neither inside nor an input.
//   bindings  (pattern node, expression) for every pattern node of the match, in the order the
//             matcher met them (pre-order, left to right); a pattern node used in two places,
//             or a dominator's path pattern, may be bound more than once.
// A pattern that can match in several ways at one root (alternatives, optionals) gives one
// match per distinct (inside, inputs) pair; the first way found is kept.
//
// Cost: the matcher memoizes the matches of every (pattern node, expression) pair for the
// lifetime of the PatternMatcher, so finding all matches of a pattern of fixed size costs time
// linear in the graph size (a dominator pattern walks the region between child and parent at
// each root, which is linear per root).
#pragma once

#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "pattern/pattern.h"

namespace collage {

struct PatternMatch {
  Expr root;
  std::vector<Expr> inside;  // in post-order of the graph
  std::vector<Expr> inputs;
  std::vector<std::pair<Pattern, Expr>> bindings;

  // The first expression bound to `pattern`, or nullptr when it is not part of the match.
  Expr Get(const Pattern& pattern) const;
  // Every expression bound to `pattern`, in binding order.
  std::vector<Expr> GetAll(const Pattern& pattern) const;
  bool IsInside(const Expr& expr) const;
};

// Accepts or rejects a match (e.g. "only if the conv has a multiple of 8 channels").
using MatchPredicate = std::function<bool(const PatternMatch&)>;

struct MatchOptions {
  // Also try roots inside nested functions (each match stays within one function body).
  bool enter_functions = false;
};

// Matches patterns against one graph. Build it once and query it with many patterns: the
// memo is shared. The graph and every pattern queried are kept alive by the matcher.
class PatternMatcher {
 public:
  // `body` is the graph: a function (its body is matched) or any expression.
  explicit PatternMatcher(Expr body, MatchOptions options = {});
  ~PatternMatcher();
  PatternMatcher(const PatternMatcher&) = delete;
  PatternMatcher& operator=(const PatternMatcher&) = delete;

  // Every match of `pattern`, roots in post-order, the matches at one root in the order the
  // pattern's alternatives are written. Matches the predicate rejects are left out.
  std::vector<PatternMatch> FindAll(const Pattern& pattern, const MatchPredicate& predicate = {});
  // The matches rooted at `root`, which must be a node of the graph (Error otherwise).
  std::vector<PatternMatch> MatchesAt(const Pattern& pattern, const Expr& root, const MatchPredicate& predicate = {});

  // The nodes of the graph in post-order; the post-order index orders `inside`.
  const std::vector<Expr>& nodes() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Every match of `pattern` in `body`; see PatternMatcher::FindAll.
std::vector<PatternMatch> FindAllMatches(const Pattern& pattern, const Expr& body, const MatchPredicate& predicate = {},
                                         const MatchOptions& options = {});

// Whether `pattern` matches at `expr`, taking `expr` as the whole graph.
bool MatchesPattern(const Pattern& pattern, const Expr& expr);

}  // namespace collage
