#include "pattern/pattern_rewriter.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/type_inference.h"
#include "ir/visitor.h"

namespace collage {
namespace {

using Replacements = std::unordered_map<const ExprNode*, Expr>;

// Rebuilds `root` bottom-up with every node of `replacements` replaced by its (rebuilt)
// replacement; inside a replacement its own root stands for the rebuilt original. Nested
// functions are kept as they are. Iterative, so depth is bounded by memory only.
Expr Substitute(const Expr& root, const Replacements& replacements) {
  std::unordered_map<const ExprNode*, Expr> rebuilt;
  std::unordered_set<const ExprNode*> in_progress;
  struct Frame {
    Expr node;
    std::vector<Expr> children;
    size_t next_child = 0;
    const Expr* replacement = nullptr;  // set once the node's replacement is being rebuilt
  };
  std::vector<Frame> stack;
  auto push = [&](const Expr& node) {
    if (rebuilt.count(node.get())) return;
    if (!in_progress.insert(node.get()).second) {
      throw Error("pattern rewriting: a replacement refers to a node that depends on it (" + DescribeExpr(*node) +
                  "); build replacements from the match's nodes");
    }
    const bool opaque = node->kind() == ExprKind::kFunction;
    stack.push_back(Frame{node, opaque ? std::vector<Expr>{} : Children(*node)});
  };
  push(root);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.replacement != nullptr) {
      rebuilt[frame.node.get()] = rebuilt.at(frame.replacement->get());
      in_progress.erase(frame.node.get());
      stack.pop_back();
      continue;
    }
    if (frame.next_child < frame.children.size()) {
      Expr child = frame.children[frame.next_child++];
      push(child);  // may reallocate `stack`; `frame` is not used after this
      continue;
    }
    std::vector<Expr> new_children;
    new_children.reserve(frame.children.size());
    for (const Expr& child : frame.children) new_children.push_back(rebuilt.at(child.get()));
    rebuilt[frame.node.get()] = frame.children.empty() ? frame.node : WithChildren(frame.node, new_children);
    auto replacement = replacements.find(frame.node.get());
    if (replacement == replacements.end()) {
      in_progress.erase(frame.node.get());
      stack.pop_back();
      continue;
    }
    frame.replacement = &replacement->second;
    push(replacement->second);  // may reallocate `stack`
  }
  return rebuilt.at(root.get());
}

// The accepted matches of one pass, as root -> replacement.
Replacements ChooseReplacements(const std::vector<PatternCallback>& callbacks, const Expr& body) {
  PatternMatcher matcher(body);
  std::unordered_set<const ExprNode*> claimed;
  Replacements replacements;
  for (const PatternCallback& callback : callbacks) {
    Check(static_cast<bool>(callback.pattern) && static_cast<bool>(callback.rewrite),
          "pattern rewriting needs a pattern and a rewrite function in every callback");
    std::vector<PatternMatch> matches = matcher.FindAll(callback.pattern, callback.predicate);
    // FindAll lists roots in post-order, so a stable sort keeps the earliest root first.
    std::stable_sort(matches.begin(), matches.end(),
                     [](const PatternMatch& a, const PatternMatch& b) { return a.inside.size() > b.inside.size(); });
    for (const PatternMatch& match : matches) {
      auto is_claimed = [&](const Expr& node) { return claimed.count(node.get()) > 0; };
      if (is_claimed(match.root) || std::any_of(match.inside.begin(), match.inside.end(), is_claimed)) continue;
      Expr replacement = callback.rewrite(match);
      if (replacement == nullptr || replacement == match.root) continue;
      claimed.insert(match.root.get());
      for (const Expr& node : match.inside) claimed.insert(node.get());
      replacements.emplace(match.root.get(), std::move(replacement));
    }
  }
  return replacements;
}

}  // namespace

RewritePassResult RewritePatternsOnce(const std::vector<PatternCallback>& callbacks, const Expr& expr) {
  Check(expr != nullptr, "pattern rewriting needs an expression, got a null expression");
  const FunctionNode* function = As<FunctionNode>(expr);
  const Expr& body = function != nullptr ? function->body : expr;
  const Replacements replacements = ChooseReplacements(callbacks, body);
  if (replacements.empty()) return {expr, 0};
  Expr new_body = Substitute(body, replacements);
  Expr result = new_body;
  if (function != nullptr) {
    std::vector<Expr> children(function->params.begin(), function->params.end());
    children.push_back(new_body);
    result = WithChildren(expr, children);
  }
  if (expr->checked_type()) InferType(result);
  return {result, static_cast<int>(replacements.size())};
}

Expr RewritePatterns(const std::vector<PatternCallback>& callbacks, const Expr& expr, int max_iterations) {
  Check(max_iterations >= 1, "pattern rewriting needs max_iterations >= 1, got " + std::to_string(max_iterations));
  Expr current = expr;
  int last_replacements = 0;
  for (int pass = 0; pass < max_iterations; ++pass) {
    RewritePassResult result = RewritePatternsOnce(callbacks, current);
    if (result.replacements == 0) return result.result;
    current = std::move(result.result);
    last_replacements = result.replacements;
  }
  throw Error("pattern rewriting hit the iteration limit of " + std::to_string(max_iterations) +
              " passes without reaching a fixed point (the last pass still made " + std::to_string(last_replacements) +
              " replacements)");
}

}  // namespace collage
