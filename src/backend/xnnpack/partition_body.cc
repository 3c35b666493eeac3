#include "backend/xnnpack/partition_body.h"

namespace collage::xnnpack {

Expr ForwardProjections(const Expr& expr) {
  Expr current = expr;
  while (const auto* projection = As<TupleGetItemNode>(current)) {
    const auto* tuple = As<TupleNode>(ForwardProjections(projection->tuple));
    if (!tuple) break;
    current = tuple->fields.at(static_cast<size_t>(projection->index));
  }
  return current;
}

std::vector<Expr> FlattenResults(const Expr& body) {
  std::vector<Expr> results;
  std::vector<Expr> stack = {body};
  while (!stack.empty()) {
    const Expr expr = ForwardProjections(stack.back());
    stack.pop_back();
    if (const auto* tuple = As<TupleNode>(expr)) {
      for (auto field = tuple->fields.rbegin(); field != tuple->fields.rend(); ++field) stack.push_back(*field);
    } else {
      results.push_back(expr);
    }
  }
  return results;
}

std::unordered_map<const ExprNode*, int> CountUses(const std::vector<Expr>& post_order,
                                                   const std::vector<Expr>& results) {
  std::unordered_map<const ExprNode*, int> uses;
  for (const Expr& expr : post_order) {
    if (const auto* call = As<CallNode>(expr)) {
      for (const Expr& arg : call->args) ++uses[ForwardProjections(arg).get()];
    }
  }
  for (const Expr& result : results) ++uses[result.get()];
  return uses;
}

}  // namespace collage::xnnpack
