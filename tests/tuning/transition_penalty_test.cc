#include "tuning/transition_penalty.h"

#include <gtest/gtest.h>

#include "collage/dataflow_graph.h"
#include "ir/op_registry.h"
#include "ir/type_inference.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

size_t IndexOf(const DataflowGraph& graph, const Expr& expr) {
  for (const DataflowNode& node : graph.nodes()) {
    if (node.expr == expr) return node.index;
  }
  ADD_FAILURE() << "not in the graph";
  return 0;
}

TEST(TransitionPenaltyTest, ValueBytesCountTensorsAndTupleFieldsButNotConstants) {
  Var x = MakeVar("x", testing::F32({4, 6}));
  const Expr weight = MakeConstant(Tensor::Zeros(DType::kF32, {4, 6}));
  const Expr product = CallOp("multiply", {x, weight});
  const Expr parts = CallOp("split", {product}, {{"sizes", std::vector<int64_t>{2, 4}}, {"axis", int64_t{1}}});
  const Expr second = MakeTupleGetItem(parts, 1);
  const Function function = MakeFunction({x}, second);
  InferType(function);
  const DataflowGraph graph = DataflowGraph::Create(function->body);
  EXPECT_EQ(ValueBytes(graph, IndexOf(graph, x)), 4 * 6 * 4);
  EXPECT_EQ(ValueBytes(graph, IndexOf(graph, weight)), 0);
  EXPECT_EQ(ValueBytes(graph, IndexOf(graph, parts)), (4 * 2 + 4 * 4) * 4);
  EXPECT_EQ(ValueBytes(graph, IndexOf(graph, second)), 4 * 4 * 4);

  const auto penalty = CopyTransitionPenalty(1e3);  // 1000 bytes per second
  EXPECT_DOUBLE_EQ(penalty("a", "b", IndexOf(graph, product), graph), 4 * 6 * 4 / 1e3);
  EXPECT_EQ(penalty("a", "b", IndexOf(graph, weight), graph), 0);
  EXPECT_THROW(CopyTransitionPenalty(0), Error);
}

}  // namespace
}  // namespace collage
