#include "ir/visitor.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <unordered_map>

#include "ir/structural_equal.h"
#include "testing/graph_builders.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using testing::F32;

TEST(PostOrderTest, ChildrenComeFirstAndSharedNodesOnce) {
  Var x = MakeVar("x", F32({4}));
  Expr relu = CallOp("nn.relu", {x});
  Expr add = CallOp("add", {relu, relu});
  std::vector<Expr> order = PostOrder(add);
  std::unordered_map<const ExprNode*, size_t> position;
  for (size_t i = 0; i < order.size(); ++i) EXPECT_TRUE(position.emplace(order[i].get(), i).second);
  // add, relu, x, and the two op nodes.
  EXPECT_EQ(order.size(), 5u);
  EXPECT_EQ(order.back(), add);
  for (const Expr& node : order) {
    ForEachChild(*node, [&](const Expr& child) { EXPECT_LT(position.at(child.get()), position.at(node.get())); });
  }
}

// The straightforward post-order: recursive, over Children.
void RecursivePostOrder(const Expr& node, const Expr& root, bool enter_functions,
                        std::unordered_map<const ExprNode*, bool>& done, std::vector<Expr>& order) {
  if (!done.emplace(node.get(), true).second) return;
  if (enter_functions || node == root || node->kind() != ExprKind::kFunction) {
    for (const Expr& child : Children(*node)) RecursivePostOrder(child, root, enter_functions, done, order);
  }
  order.push_back(node);
}

TEST(PostOrderTest, LeavingOutANodeSkipsWhatOnlyItReaches) {
  Var x = MakeVar("x", F32({4}));
  Var y = MakeVar("y", F32({4}));
  Expr tanh = CallOp("tanh", {y});
  Expr relu = CallOp("nn.relu", {CallOp("add", {x, tanh})});
  Expr root = CallOp("multiply", {relu, x});
  std::vector<Expr> order =
      PostOrderLeavingOut(root, true, [&](const ExprNode& node) { return &node == relu.get(); });
  auto listed = [&](const Expr& node) { return std::find(order.begin(), order.end(), node) != order.end(); };
  EXPECT_FALSE(listed(relu));
  EXPECT_FALSE(listed(tanh));  // reached only through relu
  EXPECT_FALSE(listed(y));
  EXPECT_TRUE(listed(x));  // reached from root too
  EXPECT_EQ(order.back(), root);
  EXPECT_EQ(PostOrderLeavingOut(root, true, nullptr).size(), PostOrder(root).size());
}

TEST(PostOrderTest, AgreesWithTheRecursiveOrderOnRandomGraphs) {
  size_t nodes = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Function function = testing::MakeVariedRandomDag(seed, 30);
    // Tuples, projections and a nested function on top of the random graph.
    const Function inner = MakeFunction({MakeVar("p", F32({2, 3}))}, function->body);
    const Expr tuple = MakeTuple({function->body, MakeTupleGetItem(MakeTuple({function->body, function->body}), 1)});
    const Expr root = MakeTuple({tuple, MakeCall(inner, {function->body}), function});
    for (bool enter_functions : {false, true}) {
      std::unordered_map<const ExprNode*, bool> done;
      std::vector<Expr> expected;
      RecursivePostOrder(root, root, enter_functions, done, expected);
      ASSERT_EQ(PostOrder(root, enter_functions), expected) << "seed " << seed;
      nodes += expected.size();
    }
  }
  EXPECT_GT(nodes, 2000u);
}

TEST(PostOrderTest, CanStopAtNestedFunctions) {
  Var p = MakeVar("p", F32({4}));
  Function inner = MakeFunction({p}, CallOp("nn.relu", {p}));
  Var x = MakeVar("x", F32({4}));
  Expr call = MakeCall(inner, {x});
  EXPECT_EQ(PostOrder(call, /*enter_functions=*/true).size(), 6u);   // call, fn, p, relu, op, x
  EXPECT_EQ(PostOrder(call, /*enter_functions=*/false).size(), 3u);  // call, fn, x
}

class CallCounter : public ExprVisitor {
 public:
  int calls = 0;
  int vars = 0;

 protected:
  void VisitCall(const Call&) override { ++calls; }
  void VisitVar(const Var&) override { ++vars; }
};

TEST(ExprVisitorTest, VisitsEachNodeOnce) {
  CallCounter counter;
  counter.Visit(testing::MakeDiamondLattice(3, 4));
  // 3 layers x 4 x (add + multiply) + 3 final adds.
  EXPECT_EQ(counter.calls, 3 * 4 * 2 + 3);
  EXPECT_EQ(counter.vars, 1);
}

// Replaces every relu by sigmoid.
class ReluToSigmoid : public ExprMutator {
 protected:
  Expr RewriteCall(const Call& pre, const Call& post) override {
    if (pre->op() && pre->op()->name == "nn.relu") return CallOp("sigmoid", post->args);
    return post;
  }
};

TEST(ExprMutatorTest, RewritesAndPreservesSharing) {
  Var x = MakeVar("x", F32({4}));
  Expr relu = CallOp("nn.relu", {x});
  Function original = MakeFunction({x}, CallOp("add", {relu, relu}));
  Expr rewritten = ReluToSigmoid().Mutate(original);

  Var y = MakeVar("y", F32({4}));
  Expr sigmoid = CallOp("sigmoid", {y});
  Function expected = MakeFunction({y}, CallOp("add", {sigmoid, sigmoid}));
  // Parameters are untouched, so the rewritten function still uses `x`: compare structurally.
  EXPECT_TRUE(StructuralEqual(rewritten, expected));
}

TEST(ExprMutatorTest, UnchangedGraphIsReturnedAsIs) {
  Function chain = testing::MakeChain(10);
  EXPECT_EQ(ExprMutator().Mutate(chain), chain);
}

TEST(WithChildrenTest, KeepsAttributesAndLocation) {
  Var x = MakeVar("x", F32({1, 4}));
  Var y = MakeVar("y", F32({1, 4}));
  Call call = CallOp("nn.leaky_relu", {x}, {{"alpha", 0.25}});
  call->set_location({"f.cir", 3, 7});
  Expr rebuilt = WithChildren(call, {call->callee, y});
  ASSERT_NE(rebuilt, call);
  EXPECT_EQ(As<CallNode>(rebuilt)->attrs.GetFloat("alpha"), 0.25);
  EXPECT_EQ(As<CallNode>(rebuilt)->args[0], y);
  EXPECT_EQ(rebuilt->location().line, 3);
  EXPECT_EQ(WithChildren(call, {call->callee, x}), call);
}

}  // namespace
}  // namespace collage
