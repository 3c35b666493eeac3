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

// A conversion cost that counts its calls and charges 1 s per element.
struct CountingCost {
  int calls = 0;
  ConversionCost AsFunction() {
    return [this](const Shape& shape, DType, Layout from, Layout to) {
      ++calls;
      EXPECT_NE(from, to);
      return static_cast<double>(NumElements(shape));
    };
  }
};

TEST(TransitionPenaltyTest, ChargesConversionsOnlyWhereTheBytesDiffer) {
  Var x = MakeVar("x", testing::F32({1, 3, 2, 2}));
  const Expr weight = MakeConstant(Tensor::Zeros(DType::kF32, {1, 3, 2, 2}));
  const Expr product = CallOp("multiply", {x, weight});
  const Expr pooled = CallOp("nn.global_avg_pool2d", {product});  // [1, 3, 1, 1]: one pixel
  const Expr parts = CallOp("split", {product}, {{"sizes", std::vector<int64_t>{1, 2}}, {"axis", int64_t{1}}});
  const Function function = MakeFunction({x}, MakeTuple({pooled, parts}));
  InferType(function);
  const DataflowGraph graph = DataflowGraph::Create(function->body);
  CountingCost counting;
  const auto penalty = ConversionTransitionPenalty(counting.AsFunction());
  const PartitionSide plain{"a", PartitionLayouts::Uniform(Layout::kPlain)};
  const PartitionSide channels_last{"b", PartitionLayouts::Uniform(Layout::kChannelsLast)};
  const PartitionSide other_plain{"c", PartitionLayouts::Uniform(Layout::kPlain)};

  EXPECT_EQ(penalty(plain, channels_last, IndexOf(graph, product), graph), 12.0);
  EXPECT_EQ(penalty(channels_last, plain, IndexOf(graph, product), graph), 12.0);
  EXPECT_EQ(penalty(plain, other_plain, IndexOf(graph, product), graph), 0.0);  // same layout
  EXPECT_EQ(penalty(plain, channels_last, IndexOf(graph, pooled), graph), 0.0);  // same bytes
  EXPECT_EQ(penalty(plain, channels_last, IndexOf(graph, weight), graph), 0.0);  // a constant
  // A tuple: the one-channel field shares its bytes, the two-channel field converts.
  EXPECT_EQ(penalty(plain, channels_last, IndexOf(graph, parts), graph), 8.0);
  EXPECT_EQ(counting.calls, 3);

  const auto bound = ConversionTransitionPenaltyBound(counting.AsFunction(), {Layout::kPlain, Layout::kChannelsLast});
  EXPECT_EQ(bound(IndexOf(graph, product), graph), 12.0);
  EXPECT_EQ(bound(IndexOf(graph, pooled), graph), 0.0);
  EXPECT_THROW(ConversionTransitionPenalty(nullptr), Error);
}

// The bound is the dearest conversion among the layouts the partitions can take: a blocked
// layout pads a three-channel pixel to eight, so it converts even where plain and
// channels-last share their bytes.
TEST(TransitionPenaltyTest, BoundIsTheDearestConversionAmongTheOfferedLayouts) {
  Var x = MakeVar("x", testing::F32({1, 3, 2, 2}));
  const Expr image = CallOp("nn.relu", {x});
  const Expr pooled = CallOp("nn.global_avg_pool2d", {image});  // [1, 3, 1, 1]
  const Function function = MakeFunction({x}, MakeTuple({image, pooled}));
  InferType(function);
  const DataflowGraph graph = DataflowGraph::Create(function->body);
  const ConversionCost cost = [](const Shape& shape, DType, Layout, Layout to) {
    return static_cast<double>(NumElements(shape)) * (to == Layout::kChannelBlocked8 ? 3 : 1);
  };
  const auto two = ConversionTransitionPenaltyBound(cost, {Layout::kPlain, Layout::kChannelsLast});
  const auto three =
      ConversionTransitionPenaltyBound(cost, {Layout::kPlain, Layout::kChannelsLast, Layout::kChannelBlocked8});
  EXPECT_EQ(two(IndexOf(graph, image), graph), 12.0);
  EXPECT_EQ(three(IndexOf(graph, image), graph), 36.0);
  EXPECT_EQ(two(IndexOf(graph, pooled), graph), 0.0);
  EXPECT_EQ(three(IndexOf(graph, pooled), graph), 9.0);
  const auto penalty = ConversionTransitionPenalty(cost);
  const PartitionSide plain{"a", PartitionLayouts::Uniform(Layout::kPlain)};
  const PartitionSide blocked{"b", PartitionLayouts::Uniform(Layout::kChannelBlocked8)};
  EXPECT_EQ(penalty(plain, blocked, IndexOf(graph, pooled), graph), 9.0);
  EXPECT_EQ(penalty({"a", blocked.layouts}, blocked, IndexOf(graph, image), graph), 0.0);
}

// A mixed side writes its results in one layout and reads its parameters in another: what it
// hands over converts from the former to the consumer's parameter layout, even to its own side.
TEST(TransitionPenaltyTest, MixedSidesConvertFromTheirResultLayout) {
  Var x = MakeVar("x", testing::F32({1, 3, 2, 2}));
  const Expr image = CallOp("nn.relu", {x});
  const Function function = MakeFunction({x}, image);
  InferType(function);
  const DataflowGraph graph = DataflowGraph::Create(function->body);
  const ConversionCost cost = [](const Shape& shape, DType, Layout from, Layout to) {
    return static_cast<double>(NumElements(shape)) * (from == Layout::kChannelBlocked8 ? 2 : 1) *
           (to == Layout::kChannelBlocked8 ? 3 : 1);
  };
  const auto penalty = ConversionTransitionPenalty(cost);
  const PartitionSide entering{"a", {Layout::kPlain, Layout::kChannelBlocked8}};
  const PartitionSide blocked{"a", PartitionLayouts::Uniform(Layout::kChannelBlocked8)};
  const PartitionSide plain{"b", PartitionLayouts::Uniform(Layout::kPlain)};
  EXPECT_EQ(penalty(entering, blocked, IndexOf(graph, image), graph), 0.0);
  EXPECT_EQ(penalty(entering, plain, IndexOf(graph, image), graph), 24.0);
  EXPECT_EQ(penalty(entering, entering, IndexOf(graph, image), graph), 24.0);
  EXPECT_EQ(penalty(plain, entering, IndexOf(graph, image), graph), 0.0);
  EXPECT_FALSE(entering.HandsOverFreelyTo(entering));
  EXPECT_TRUE(blocked.HandsOverFreelyTo(blocked));
}

TEST(TransitionPenaltyTest, MeasuredConversionsAreRememberedAndPositive) {
  MeasuredConversionCosts costs(nullptr);
  const double seconds = costs.Seconds({1, 16, 32, 32}, DType::kF32, Layout::kPlain, Layout::kChannelsLast);
  EXPECT_GT(seconds, 0.0);
  EXPECT_EQ(costs.Seconds({1, 16, 32, 32}, DType::kF32, Layout::kPlain, Layout::kChannelsLast), seconds);
}

}  // namespace
}  // namespace collage
