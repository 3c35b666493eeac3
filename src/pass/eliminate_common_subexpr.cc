#include <map>
#include <tuple>
#include <unordered_map>

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"
#include "support/hash.h"

namespace collage {
namespace {

// Bottom-up: after a node's children are rewritten, a call with the same callee, the same
// (already deduplicated) arguments and equal attributes as an earlier one is replaced by it.
class CommonSubexprEliminator : public ExprMutator {
 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    if (post->op() == nullptr) return post;  // function calls stay: their bodies may differ in attrs
    std::vector<const ExprNode*> key{post->callee.get()};
    for (const Expr& arg : post->args) key.push_back(arg.get());
    std::vector<Call>& same_operands = calls_[std::move(key)];
    for (const Call& seen : same_operands) {
      if (seen->attrs == post->attrs) return seen;
    }
    same_operands.push_back(post);
    return post;
  }

  Expr RewriteConstant(const Constant& /*pre*/, const Constant& post) override {
    const Tensor& data = post->data;
    const size_t hash = HashBytes(data.raw_data(), data.NumBytes());
    for (const Constant& seen : constants_[hash]) {
      if (seen->data.BitwiseEqual(data)) return seen;
    }
    constants_[hash].push_back(post);
    return post;
  }

  Expr RewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& post) override {
    auto [it, inserted] = projections_.emplace(std::make_pair(post->tuple.get(), post->index), post);
    return it->second;
  }

 private:
  struct OperandsHash {
    size_t operator()(const std::vector<const ExprNode*>& operands) const {
      size_t hash = 0;
      for (const ExprNode* operand : operands) hash = HashCombine(hash, std::hash<const ExprNode*>()(operand));
      return hash;
    }
  };
  // By callee and arguments (lookups only: the order of the entries never matters).
  std::unordered_map<std::vector<const ExprNode*>, std::vector<Call>, OperandsHash> calls_;
  std::map<size_t, std::vector<Constant>> constants_;
  std::map<std::pair<const ExprNode*, int>, TupleGetItem> projections_;
};

}  // namespace

Pass EliminateCommonSubexpr() {
  return Pass::FunctionPass({"EliminateCommonSubexpr", 2},
                            [](const Function& function, const Module&, const PassContext&) {
                              Function result =
                                  Downcast<FunctionNode>(CommonSubexprEliminator().Mutate(function));
                              InferType(result);
                              return result;
                            });
}

}  // namespace collage
