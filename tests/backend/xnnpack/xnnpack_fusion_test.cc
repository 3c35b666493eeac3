// Chains the xnnpack backend builds as one subgraph: conv + bias + relu (bias folded into the
// convolution), a mobilenet_v2 inverted-residual block, dense + bias + relu, residual adds,
// multi-output partitions, and repeated runs with fresh buffers.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "backend/xnnpack/bias_fusion.h"
#include "backend/xnnpack/partition_body.h"
#include "backend/xnnpack/xnnpack_backend.h"
#include "backend/xnnpack/xnnpack_test_graphs.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::xnnpack::Conv2D;
using testing::xnnpack::Conv2DParams;
using testing::xnnpack::F32;
using testing::xnnpack::RandomConstant;
using testing::xnnpack::TypedFunction;
using Ints = std::vector<int64_t>;

Expr Relu6(const Expr& x) { return CallOp("clip", {x}, {{"a_min", 0.0}, {"a_max", 6.0}}); }

// conv + bias (bias_add or add of a [C, 1, 1] constant) + activation.
Expr ConvBnAct(const Expr& x, int64_t in_channels, const Conv2DParams& params, uint64_t seed, bool relu6 = true) {
  Expr conv = Conv2D(x, in_channels, params, seed);
  Expr biased = seed % 2 == 0 ? Expr(CallOp("nn.bias_add", {conv, RandomConstant({params.out_channels}, seed + 1)}))
                              : Expr(CallOp("add", {conv, RandomConstant({params.out_channels, 1, 1}, seed + 1)}));
  return relu6 ? Relu6(biased) : biased;
}

size_t FusedBiasCount(const Function& function) {
  const std::vector<Expr> post_order = PostOrder(function->body, false);
  const std::vector<Expr> results = xnnpack::FlattenResults(function->body);
  return xnnpack::PlanBiasFusion(post_order, xnnpack::CountUses(post_order, results)).bias_of_producer.size();
}

TEST(XnnpackFusionTest, ConvBiasReluFoldsTheBias) {
  Var x = MakeVar("x", F32({1, 3, 9, 11}));
  Conv2DParams params{5, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1};
  const Function function =
      TypedFunction({x}, CallOp("nn.relu", {CallOp("nn.bias_add", {Conv2D(x, 3, params, 1), RandomConstant({5}, 2)})}));
  EXPECT_EQ(FusedBiasCount(function), 1u);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, BiasIsNotFoldedWhenTheConvolutionHasAnotherUser) {
  Var x = MakeVar("x", F32({1, 3, 6, 6}));
  Expr conv = Conv2D(x, 3, {4, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1}, 3);
  Expr biased = CallOp("add", {conv, RandomConstant({4, 1, 1}, 4)});
  const Function function = TypedFunction({x}, MakeTuple({biased, conv}));
  EXPECT_EQ(FusedBiasCount(function), 0u);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, MobilenetV2InvertedResidualBlock) {
  Var x = MakeVar("x", F32({1, 8, 15, 13}));
  Expr expanded = ConvBnAct(x, 8, {24, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1}, 10);
  Expr depthwise = ConvBnAct(expanded, 24, {24, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 24}, 13);
  Expr projected = ConvBnAct(depthwise, 24, {8, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1}, 16, false);
  const Function function = TypedFunction({x}, CallOp("add", {x, projected}));
  EXPECT_EQ(FusedBiasCount(function), 3u);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, StridedDepthwiseBlock) {
  Var x = MakeVar("x", F32({2, 6, 14, 11}));
  Expr depthwise = ConvBnAct(x, 6, {6, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 6}, 20);
  const Function function =
      TypedFunction({x}, ConvBnAct(depthwise, 6, {10, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1}, 22));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, ResnetBasicBlock) {
  Var x = MakeVar("x", F32({1, 6, 9, 9}));
  Expr first = ConvBnAct(x, 6, {6, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1}, 30);
  Expr second = ConvBnAct(first, 6, {6, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1}, 32, false);
  const Function function = TypedFunction({x}, CallOp("nn.relu", {CallOp("add", {second, x})}));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, ClassifierHeadDenseBiasRelu) {
  Var x = MakeVar("x", F32({2, 12, 5, 5}));
  Expr pooled = CallOp("flatten", {CallOp("nn.global_avg_pool2d", {x})});
  Expr hidden = CallOp(
      "nn.relu",
      {CallOp("nn.bias_add", {CallOp("nn.dense", {pooled, RandomConstant({9, 12}, 40)}), RandomConstant({9}, 41)})});
  Expr logits = CallOp("add", {CallOp("nn.dense", {hidden, RandomConstant({5, 9}, 42)}), RandomConstant({5}, 43)});
  const Function function = TypedFunction({x}, CallOp("nn.softmax", {logits}));
  EXPECT_EQ(FusedBiasCount(function), 2u);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, SqueezenetFireModule) {
  Var x = MakeVar("x", F32({1, 8, 11, 11}));
  Expr pooled =
      CallOp("nn.max_pool2d", {x}, {{"pool_size", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}});
  Expr squeeze =
      CallOp("nn.relu", {CallOp("nn.bias_add", {Conv2D(pooled, 8, {4, {1, 1}}, 50), RandomConstant({4}, 51)})});
  Expr expand1 = CallOp("nn.relu", {Conv2D(squeeze, 4, {6, {1, 1}}, 52)});
  Expr expand3 = CallOp("nn.relu", {Conv2D(squeeze, 4, {6, {3, 3}, {1, 1}, {1, 1, 1, 1}}, 53)});
  // concatenate is not in this XNNPACK: the two branches are separate results.
  const Function function = TypedFunction({x}, MakeTuple({expand1, expand3}));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, ResultsMayRepeatAndIncludeParametersAndIntermediates) {
  Var x = MakeVar("x", F32({1, 3, 4, 5}));
  Var y = MakeVar("y", F32({4, 6}));
  Expr sum = CallOp("add", {x, x});
  Expr relu = CallOp("nn.relu", {sum});
  Expr scaled = CallOp("multiply", {y, RandomConstant({6}, 60)});
  const Function function = TypedFunction({x, y}, MakeTuple({relu, sum, relu, y, scaled, MakeTuple({sum})}));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

TEST(XnnpackFusionTest, RunsRepeatedlyWithFreshBuffers) {
  Var x = MakeVar("x", F32({1, 4, 7, 6}));
  const Function function = TypedFunction({x}, ConvBnAct(x, 4, {5, {3, 3}, {2, 1}, {1, 1, 1, 1}, {1, 1}, 1}, 70));
  CompileOptions options;
  options.threads = 2;
  const std::unique_ptr<Executable> executable = XnnpackBackend().Compile(function, options);
  for (uint64_t seed = 0; seed < 3; ++seed) {
    const std::vector<Value> args = RandomArguments(function, seed);
    const Comparison comparison =
        CompareValues(InvokeExecutable(*executable, function, args), Evaluate(function, args), std::nullopt);
    EXPECT_TRUE(comparison.ok()) << "seed " << seed << ": " << comparison.first_mismatch;
  }
}

TEST(XnnpackFusionTest, MatchesTheReferenceOnOneAndThreeThreads) {
  Var x = MakeVar("x", F32({2, 5, 9, 7}));
  const Function function = TypedFunction({x}, ConvBnAct(x, 5, {8, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1}, 80));
  for (int threads : {1, 3}) EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, 0, threads)) << threads;
}

TEST(XnnpackFusionTest, RunRejectsBuffersOfTheWrongShape) {
  Var x = MakeVar("x", F32({1, 3, 4, 4}));
  const Function function = TypedFunction({x}, CallOp("nn.relu", {x}));
  const std::unique_ptr<Executable> executable = XnnpackBackend().Compile(function, {});
  std::vector<Tensor> inputs = {Tensor::Zeros(DType::kF32, {1, 3, 4, 5})};
  std::vector<Tensor> outputs = {Tensor::Zeros(DType::kF32, {1, 3, 4, 4})};
  EXPECT_THROW(executable->Run(inputs, outputs), Error);
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
