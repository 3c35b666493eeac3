// The pattern rewriter: replaces matches of patterns through callbacks until nothing changes,
// for graph rewriting passes.
//
// One pass over a graph:
//   1. every callback's pattern is matched against the current graph (PatternMatcher, its
//      predicate applied);
//   2. matches are offered to callbacks in priority order: callbacks in the order given; for
//      one callback, larger matches (more inside nodes) first, then the earliest root in
//      post-order. A match is skipped when one of its nodes (inside nodes and root) is already
//      claimed by an accepted match; otherwise its callback is called and either declines
//      (returns nullptr, or the root itself) or returns the replacement of the root, and the
//      match's nodes are claimed. Accepted matches therefore never overlap;
//   3. all accepted replacements are applied at once: each root is replaced by its
//      replacement everywhere, and the replacements themselves see the other replacements
//      (a replacement that uses another match's root uses that root's replacement). A
//      replacement may use its own root (e.g. to wrap it). Replacements should be built from
//      the match's nodes; a replacement that refers to a later node of the graph is an Error
//      if that makes a cycle.
// Passes repeat until one changes nothing. Nested functions are left alone.
// When the input was type-checked (its checked type is set) the result of every pass is
// type-checked again, so type constraints keep working and ill-typed replacements are
// reported as TypeErrors.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "pattern/pattern.h"
#include "pattern/pattern_matcher.h"

namespace collage {

// Returns the replacement of `match.root`, or nullptr to decline the match.
using RewriteCallback = std::function<Expr(const PatternMatch& match)>;

struct PatternCallback {
  Pattern pattern;
  RewriteCallback rewrite;
  MatchPredicate predicate = nullptr;  // optional
};

struct RewritePassResult {
  Expr result;
  int replacements = 0;  // accepted matches
};

// One pass (steps 1-3 above) over `expr`, a function (its body is rewritten) or any
// expression.
RewritePassResult RewritePatternsOnce(const std::vector<PatternCallback>& callbacks, const Expr& expr);

// Passes until one replaces nothing and returns the result. At most `max_iterations` passes
// run, the last of which must replace nothing; otherwise throws Error saying the limit was
// hit without reaching a fixed point.
Expr RewritePatterns(const std::vector<PatternCallback>& callbacks, const Expr& expr, int max_iterations = 100);

}  // namespace collage
