#include "collage/sub_graph.h"

#include <gtest/gtest.h>

#include "collage_test_graphs.h"
#include "interpreter/interpreter.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

SubGraph Make(const DataflowGraph& graph, std::vector<size_t> inside) {
  return SubGraph(graph, IndexSet(graph.size(), inside));
}

TEST(SubGraphTest, DerivedSets) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  const SubGraph sub_graph = Make(graph, {2, 3});
  EXPECT_EQ(sub_graph.input().ToString(), "{1}");
  EXPECT_EQ(sub_graph.entry().ToString(), "{2, 3}");
  EXPECT_EQ(sub_graph.exit().ToString(), "{3}");  // external
  EXPECT_TRUE(sub_graph.output().IsEmpty());
  EXPECT_EQ(sub_graph.depth(), 2u);
  EXPECT_EQ(sub_graph.kind(), OpPatternKind::kBroadcast);  // add is broadcast, tanh elementwise
}

TEST(SubGraphTest, ConvexityViolationIsInvalid) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  // relu and add without tanh: relu -> tanh (outside) -> add.
  EXPECT_FALSE(Make(graph, {1, 3}).IsValid(graph, {}));
  EXPECT_TRUE(Make(graph, {1, 2, 3}).IsValid(graph, {}));
  // In the diamond, relu and add are convex: tanh is not fed by relu.
  const DataflowGraph diamond = GraphOf(collage_testing::MakeDiamond());
  EXPECT_TRUE(Make(diamond, {1, 3}).IsValid(diamond, {}));
  EXPECT_FALSE(SubGraph(diamond, IndexSet(diamond.size())).IsValid(diamond, {}));
}

TEST(SubGraphTest, TapsExitsAndDepthLimits) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeSkip());
  const SubGraph tapped = Make(graph, {1, 2});  // relu feeds tanh inside and add outside
  EXPECT_EQ(tapped.exit().ToString(), "{1, 2}");
  EXPECT_FALSE(tapped.IsValid(graph, {.max_exits = 0, .allow_taps = false, .max_depth = 0}));
  EXPECT_TRUE(tapped.IsValid(graph, {.max_exits = 0, .allow_taps = true, .max_depth = 0}));
  EXPECT_FALSE(tapped.IsValid(graph, {.max_exits = 1, .allow_taps = true, .max_depth = 0}));
  const SubGraph all = Make(graph, {1, 2, 3});
  EXPECT_EQ(all.depth(), 3u);
  EXPECT_TRUE(all.IsValid(graph, {.max_exits = 1, .allow_taps = false, .max_depth = 3}));
  EXPECT_FALSE(all.IsValid(graph, {.max_exits = 1, .allow_taps = false, .max_depth = 2}));
}

TEST(SubGraphTest, UnionTouchingAndWrapping) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeDiamond());
  const SubGraph relu = Make(graph, {1}).WithAttrs(graph, Attrs{{attr::kComposite, std::string("x.relu")}});
  const SubGraph tanh = Make(graph, {2});
  const SubGraph add = Make(graph, {3});
  EXPECT_FALSE(relu.Touches(tanh));
  EXPECT_TRUE(relu.Touches(add));
  EXPECT_TRUE(add.Touches(relu));
  const SubGraph joined = relu.DisjointUnion(graph, add);
  EXPECT_EQ(joined.inside().ToString(), "{1, 3}");
  ASSERT_EQ(joined.nested().size(), 1u);
  EXPECT_EQ(joined.nested()[0].attrs.GetString(attr::kComposite), "x.relu");
  const SubGraph primitive = joined.WithAttrs(graph, Attrs{{attr::kPrimitive, int64_t{1}}});
  ASSERT_EQ(primitive.nested().size(), 1u);
  EXPECT_EQ(primitive.nested()[0].sub_graph->nested().size(), 1u);
  EXPECT_FALSE(primitive == joined);
  EXPECT_THROW(joined.DisjointUnion(graph, add), Error);
  EXPECT_NE(primitive.ToString().find("Composite=\"x.relu\""), std::string::npos) << primitive.ToString();
}

TEST(SubGraphTest, ExtractComputesTheExits) {
  const Function skip = collage_testing::MakeSkip();
  const DataflowGraph graph = GraphOf(skip);
  const Function extracted = Make(graph, {1, 2}).Extract(graph);
  ASSERT_EQ(extracted->params.size(), 1u);
  ASSERT_NE(As<TupleNode>(extracted->body), nullptr);
  const std::vector<Value> args = RandomArguments(skip, 3);
  const std::vector<Tensor> parts = Evaluate(extracted, args).Flatten();
  ASSERT_EQ(parts.size(), 2u);
  // add(relu, tanh(relu)) recomputed from the extracted pieces.
  const Function add_of_parts = [&] {
    Var a = MakeVar("a", testing::F32({2, 3}));
    Var b = MakeVar("b", testing::F32({2, 3}));
    return MakeFunction({a, b}, CallOp("add", {a, b}));
  }();
  const Tensor recombined = Evaluate(add_of_parts, {Value(parts[0]), Value(parts[1])}).Flatten()[0];
  EXPECT_TRUE(recombined.BitwiseEqual(Evaluate(skip, args).Flatten()[0]));
}

}  // namespace
}  // namespace collage
