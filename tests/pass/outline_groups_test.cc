#include "pass/outline_groups.h"

#include <gtest/gtest.h>

#include "ir/type_inference.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

// x -> relu -> tanh -> exp (indices 0..3), relu and tanh outlined together.
TEST(OutlineGroupsTest, ReportsWhereEachNodesValueWent) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  const Function function = MakeFunction({x}, CallOp("exp", {CallOp("tanh", {CallOp("nn.relu", {x})})}));
  InferType(function);
  const IndexedForwardGraph graph = IndexedForwardGraph::Create(function->body);
  std::vector<Expr> new_value_of;
  OutlineOptions options;
  options.function_attrs = [](size_t) { return Attrs{{attr::kPrimitive, int64_t{1}}}; };
  options.new_value_of = &new_value_of;
  const Expr body = OutlineGroups(graph, {std::nullopt, 0, 0, std::nullopt}, options);
  ASSERT_EQ(new_value_of.size(), 4u);
  EXPECT_EQ(new_value_of[0]->kind(), ExprKind::kVar);
  EXPECT_EQ(new_value_of[1], nullptr);  // relu is used only inside its group
  const auto* call = As<CallNode>(new_value_of[2]);
  ASSERT_NE(call, nullptr);
  ASSERT_NE(As<FunctionNode>(call->callee), nullptr);
  EXPECT_EQ(As<FunctionNode>(call->callee)->attrs.GetInt(attr::kPrimitive), 1);
  EXPECT_EQ(new_value_of[3], body);
  EXPECT_EQ(As<CallNode>(body)->args[0], new_value_of[2]);
}

}  // namespace
}  // namespace collage
