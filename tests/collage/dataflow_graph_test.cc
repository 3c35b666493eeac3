#include "collage/dataflow_graph.h"

#include <gtest/gtest.h>

#include "collage_test_graphs.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

TEST(DataflowGraphTest, DiamondInputsOutputsAndDominators) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeDiamond());
  ASSERT_EQ(graph.size(), 4u);
  EXPECT_EQ(graph.node(0).expr->kind(), ExprKind::kVar);
  EXPECT_EQ(graph.node(0).outputs, std::vector<size_t>({1, 2}));
  EXPECT_EQ(graph.node(3).inputs, std::vector<size_t>({1, 2}));
  EXPECT_EQ(graph.node(0).dominator, std::nullopt);
  EXPECT_EQ(graph.node(1).dominator, 0u);
  EXPECT_EQ(graph.node(3).dominator, 0u);
  EXPECT_EQ(graph.node(0).post_dominator, 3u);
  EXPECT_EQ(graph.node(1).post_dominator, 3u);
  EXPECT_EQ(graph.node(3).post_dominator, std::nullopt);
  EXPECT_TRUE(graph.node(3).external);
  EXPECT_FALSE(graph.node(1).external);
  EXPECT_EQ(graph.node(1).pattern, OpPatternKind::kElemWise);
}

TEST(DataflowGraphTest, SkipEdgeDominatorIsTheSharedProducer) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  EXPECT_EQ(graph.node(2).dominator, 1u);
  EXPECT_EQ(graph.node(3).dominator, 1u);
  EXPECT_EQ(graph.node(1).post_dominator, 3u);
  EXPECT_EQ(graph.IndexOf(graph.node(2).expr.get()), 2u);
  EXPECT_THROW(graph.IndexOf(MakeVar("other", testing::F32({1})).get()), Error);
}

TEST(DataflowGraphTest, RepeatedOperandIsOneInput) {
  Var x = MakeVar("x", testing::F32({2}));
  const DataflowGraph graph = GraphOf(MakeFunction({x}, CallOp("add", {x, x})));
  EXPECT_EQ(graph.node(1).inputs, std::vector<size_t>({0}));
  EXPECT_EQ(graph.node(0).outputs, std::vector<size_t>({1}));
}

}  // namespace
}  // namespace collage
