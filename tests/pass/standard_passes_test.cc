#include "pass/standard_passes.h"

#include <gtest/gtest.h>

#include <cmath>

#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "ir/structural_equal.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;

int CountCalls(const Expr& expr, const std::string& op_name) {
  int count = 0;
  for (const Expr& node : PostOrder(expr)) {
    const auto* call = As<CallNode>(node);
    if (call && call->op() && call->op()->name == op_name) ++count;
  }
  return count;
}

// Max |a - b| over all tensors of two values of the same structure.
double MaxAbsDifference(const Value& a, const Value& b) {
  std::vector<Tensor> left = a.Flatten();
  std::vector<Tensor> right = b.Flatten();
  EXPECT_EQ(left.size(), right.size());
  double max_difference = 0;
  for (size_t t = 0; t < left.size(); ++t) {
    EXPECT_EQ(left[t].shape(), right[t].shape());
    for (int64_t i = 0; i < left[t].NumElements(); ++i) {
      max_difference = std::max(max_difference, std::abs(left[t].GetAsDouble(i) - right[t].GetAsDouble(i)));
    }
  }
  return max_difference;
}

// Runs `pass` and checks the interpreter's outputs do not change on random inputs.
Function RunAndCheckPreserved(const Pass& pass, const Function& function, double tolerance = 1e-5) {
  Module result = pass(Module(function));
  std::vector<Value> args = RandomArguments(function, 42);
  EXPECT_LE(MaxAbsDifference(Evaluate(function, args), Evaluate(result.main(), args)), tolerance);
  return result.main();
}

Constant ConstantOf(std::vector<float> values, Shape shape) {
  return MakeConstant(Tensor::FromVector<float>(values, std::move(shape)));
}

TEST(FoldConstantTest, FoldsConstantSubgraphsOnly) {
  Var x = MakeVar("x", F32({2}));
  Expr constant_part = CallOp("exp", {CallOp("add", {ConstantOf({0, 1}, {2}), ConstantOf({1, 1}, {2})})});
  Function function = MakeFunction({x}, CallOp("multiply", {x, constant_part}));
  Function folded = RunAndCheckPreserved(FoldConstant(), function);
  EXPECT_EQ(CountCalls(folded, "exp"), 0);
  EXPECT_EQ(CountCalls(folded, "add"), 0);
  EXPECT_EQ(CountCalls(folded, "multiply"), 1);
  const auto* folded_constant = As<ConstantNode>(As<CallNode>(folded->body)->args[1]);
  ASSERT_NE(folded_constant, nullptr);
  EXPECT_NEAR(folded_constant->data.data<float>()[1], std::exp(2.0), 1e-6 * std::exp(2.0));
}

TEST(FoldConstantTest, FoldsTupleOutputsAndProjections) {
  Var x = MakeVar("x", F32({2}));
  Expr parts = CallOp("split", {ConstantOf({1, 2, 3, 4}, {4})}, {{"sizes", std::vector<int64_t>{2, 2}}});
  Function function = MakeFunction({x}, CallOp("add", {x, MakeTupleGetItem(parts, 1)}));
  Function folded = RunAndCheckPreserved(FoldConstant(), function);
  EXPECT_EQ(CountCalls(folded, "split"), 0);
  EXPECT_EQ(As<ConstantNode>(As<CallNode>(folded->body)->args[1])->data.data<float>()[0], 3.0f);
}

TEST(FoldConstantTest, DisabledAtOptLevelOne) {
  Var x = MakeVar("x", F32({2}));
  Function function = MakeFunction({x}, CallOp("add", {x, CallOp("exp", {ConstantOf({0, 1}, {2})})}));
  PassContext context;
  context.opt_level = 1;
  EXPECT_EQ(FoldConstant()(Module(function), context).main(), function);
}

// conv2d (+ bias_add) followed by batch_norm with constant parameters.
Function MakeConvBatchNorm(bool with_bias, bool conv_has_second_user) {
  Var x = MakeVar("x", F32({1, 3, 5, 5}));
  Expr conv = CallOp("nn.conv2d", {x, MakeConstant(Tensor::Random(DType::kF32, {4, 3, 3, 3}, 1))},
                     {{"padding", std::vector<int64_t>{1, 1, 1, 1}}});
  Expr producer = with_bias ? Expr(CallOp("nn.bias_add", {conv, ConstantOf({0.1f, 0.2f, 0.3f, 0.4f}, {4})})) : conv;
  Expr bn = CallOp("nn.batch_norm", {producer, ConstantOf({1.5f, 0.5f, 1, 2}, {4}), ConstantOf({0, 1, -1, 0.5f}, {4}),
                                     ConstantOf({0.2f, -0.1f, 0, 1}, {4}), ConstantOf({1, 2, 0.5f, 4}, {4})});
  Expr body = conv_has_second_user ? Expr(MakeTuple({bn, conv})) : bn;
  return MakeFunction({x}, body);
}

TEST(SimplifyInferenceTest, FoldsBatchNormIntoConvWeights) {
  for (bool with_bias : {false, true}) {
    Function simplified = RunAndCheckPreserved(SimplifyInference(), MakeConvBatchNorm(with_bias, false), 1e-4);
    EXPECT_EQ(CountCalls(simplified, "nn.batch_norm"), 0);
    EXPECT_EQ(CountCalls(simplified, "nn.conv2d"), 1);
    EXPECT_EQ(CountCalls(simplified, "nn.bias_add"), 1) << "one bias carries the bias and the bn shift";
    EXPECT_EQ(CountCalls(simplified, "multiply"), 0);
  }
}

TEST(SimplifyInferenceTest, SharedConvFallsBackToMultiplyAdd) {
  Function simplified = RunAndCheckPreserved(SimplifyInference(), MakeConvBatchNorm(false, true), 1e-4);
  EXPECT_EQ(CountCalls(simplified, "nn.batch_norm"), 0);
  EXPECT_EQ(CountCalls(simplified, "nn.conv2d"), 1) << "the conv must not be duplicated";
  EXPECT_EQ(CountCalls(simplified, "multiply"), 1);
  EXPECT_EQ(CountCalls(simplified, "add"), 1);
  EXPECT_EQ(CountCalls(simplified, "rsqrt"), 0) << "the scale is folded to a constant";
}

TEST(SimplifyInferenceTest, FoldsBatchNormIntoDense) {
  Var x = MakeVar("x", F32({2, 3}));
  Expr dense = CallOp("nn.dense", {x, MakeConstant(Tensor::Random(DType::kF32, {4, 3}, 2))});
  Expr bn = CallOp("nn.batch_norm", {dense, ConstantOf({1, 2, 3, 4}, {4}), ConstantOf({0, 0, 1, 1}, {4}),
                                     ConstantOf({0, 1, 0, 1}, {4}), ConstantOf({1, 1, 2, 2}, {4})});
  Function simplified = RunAndCheckPreserved(SimplifyInference(), MakeFunction({x}, bn), 1e-4);
  EXPECT_EQ(CountCalls(simplified, "nn.batch_norm"), 0);
  EXPECT_EQ(CountCalls(simplified, "nn.dense"), 1);
}

// conv2d_transpose weights are (in, out / groups, KH, KW): with two groups of two input
// channels each, output channel 3 is axis-1 index 1 of input rows 2 and 3. A scale applied per
// axis-0 row (as for conv2d) would give other outputs, which the interpreter would catch.
TEST(SimplifyInferenceTest, FoldsBatchNormIntoGroupedTransposedConvWeights) {
  for (bool with_bias : {false, true}) {
    Var x = MakeVar("x", F32({1, 4, 3, 3}));
    Expr conv = CallOp("nn.conv2d_transpose", {x, MakeConstant(Tensor::Random(DType::kF32, {4, 2, 3, 3}, 3))},
                       {{"strides", std::vector<int64_t>{2, 2}},
                        {"padding", std::vector<int64_t>{1, 1, 1, 1}},
                        {"groups", int64_t{2}}});
    Expr producer = with_bias ? Expr(CallOp("nn.bias_add", {conv, ConstantOf({0.1f, 0.2f, 0.3f, 0.4f}, {4})})) : conv;
    Expr bn = CallOp("nn.batch_norm", {producer, ConstantOf({1.5f, 0.5f, 3, 2}, {4}), ConstantOf({0, 1, -1, 0.5f}, {4}),
                                       ConstantOf({0.2f, -0.1f, 0, 1}, {4}), ConstantOf({1, 2, 0.5f, 4}, {4})});
    Function simplified = RunAndCheckPreserved(SimplifyInference(), MakeFunction({x}, bn), 1e-4);
    EXPECT_EQ(CountCalls(simplified, "nn.batch_norm"), 0);
    EXPECT_EQ(CountCalls(simplified, "nn.conv2d_transpose"), 1);
    EXPECT_EQ(CountCalls(simplified, "nn.bias_add"), 1);
    EXPECT_EQ(CountCalls(simplified, "multiply"), 0) << "folded into the weights, not decomposed";
  }
}

TEST(SimplifyInferenceTest, NonConstantParametersDecompose) {
  Var x = MakeVar("x", F32({2, 3, 2}));
  Var gamma = MakeVar("gamma", F32({3}));
  Expr bn = CallOp("nn.batch_norm", {x, gamma, ConstantOf({0, 1, 2}, {3}), ConstantOf({0, 0, 1}, {3}),
                                     ConstantOf({1, 2, 3}, {3})});
  Function simplified = RunAndCheckPreserved(SimplifyInference(), MakeFunction({x, gamma}, bn), 1e-5);
  EXPECT_EQ(CountCalls(simplified, "nn.batch_norm"), 0);
  EXPECT_EQ(CountCalls(simplified, "rsqrt"), 0) << "var + eps is constant and folds";
}

// The second batch norm's data is the first one's decomposition, a node built by the pass and
// not type-checked: decomposing it must still find the data's type (regression: it crashed on
// the dcgan generator, where batch norms follow transposed convolutions).
TEST(SimplifyInferenceTest, DecomposesBatchNormOfARewrittenProducer) {
  Var x = MakeVar("x", F32({1, 2, 3, 3}));
  auto batch_norm = [](const Expr& data) {
    return CallOp("nn.batch_norm", {data, ConstantOf({1, 2}, {2}), ConstantOf({0, 1}, {2}), ConstantOf({0.5f, 0}, {2}),
                                    ConstantOf({1, 4}, {2})});
  };
  Function function = MakeFunction({x}, batch_norm(CallOp("nn.relu", {batch_norm(x)})));
  Function simplified = RunAndCheckPreserved(SimplifyInference(), function, 1e-5);
  EXPECT_EQ(CountCalls(simplified, "nn.batch_norm"), 0);
  EXPECT_EQ(CountCalls(simplified, "multiply"), 2);
}

TEST(SimplifyInferenceTest, RemovesDropout) {
  Var x = MakeVar("x", F32({2, 3}));
  Function function = MakeFunction({x}, CallOp("nn.relu", {CallOp("nn.dropout", {x}, {{"rate", 0.1}})}));
  Function simplified = RunAndCheckPreserved(SimplifyInference(), function);
  EXPECT_EQ(CountCalls(simplified, "nn.dropout"), 0);
  EXPECT_EQ(As<CallNode>(simplified->body)->args[0], simplified->params[0]);
}

// nn.pad of NCHW data: widths in ONNX order (4 begins, then 4 ends).
Expr Pad(const Expr& data, std::vector<int64_t> widths, double value = 0.0, const std::string& mode = "constant") {
  return CallOp("nn.pad", {data}, {{"pad_width", std::move(widths)}, {"pad_value", value}, {"mode", mode}});
}

Expr Conv3x3(const Expr& data, std::vector<int64_t> padding = {0, 0, 0, 0}) {
  return CallOp("nn.conv2d", {data, MakeConstant(Tensor::Random(DType::kF32, {4, 3, 3, 3}, 3))},
                {{"padding", std::move(padding)}});
}

Expr AveragePool3x3(const Expr& data, std::vector<int64_t> padding, int64_t count_include_pad, int64_t ceil_mode = 0) {
  return CallOp("nn.avg_pool2d", {data},
                {{"pool_size", std::vector<int64_t>{3, 3}},
                 {"strides", std::vector<int64_t>{2, 2}},
                 {"padding", std::move(padding)},
                 {"count_include_pad", count_include_pad},
                 {"ceil_mode", ceil_mode}});
}

TEST(FoldPaddingTest, RemovesZeroWidthPads) {
  Var x = MakeVar("x", F32({1, 3, 6, 6}));
  Function function = MakeFunction({x}, CallOp("nn.relu", {Pad(x, std::vector<int64_t>(8, 0), 1.0, "edge")}));
  Function folded = RunAndCheckPreserved(FoldPadding(), function);
  EXPECT_EQ(CountCalls(folded, "nn.pad"), 0);
}

// Asymmetric zero padding of H and W, added to the window's own padding.
TEST(FoldPaddingTest, FoldsZeroPadsIntoConvolutionsAndCountingAveragePools) {
  Var x = MakeVar("x", F32({1, 3, 7, 8}));
  const std::vector<int64_t> widths = {0, 0, 1, 2, 0, 0, 2, 0};
  const std::vector<Expr> windows = {
      Conv3x3(Pad(x, widths)),
      Conv3x3(Pad(x, widths), {1, 0, 0, 1}),
      AveragePool3x3(Pad(x, widths), {0, 0, 0, 0}, 0),
      AveragePool3x3(Pad(x, widths), {1, 1, 0, 1}, 1),
  };
  for (const Expr& window : windows) {
    Function folded = RunAndCheckPreserved(FoldPadding(), MakeFunction({x}, window));
    EXPECT_EQ(CountCalls(folded, "nn.pad"), 0);
    const auto* call = As<CallNode>(folded->body);
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(call->args[0], folded->params[0]);
    if (call->op()->name == "nn.avg_pool2d") {
      EXPECT_EQ(call->attrs.GetInt("count_include_pad"), 1);
    }
  }
  // The negative control of the average pool's rule: the explicit zeros folded into padding
  // that the pool does not count change its outputs.
  Function explicit_zeros = MakeFunction({x}, AveragePool3x3(Pad(x, widths), {0, 0, 0, 0}, 0));
  Function uncounted = MakeFunction({x}, AveragePool3x3(x, {1, 2, 2, 0}, 0));
  const std::vector<Value> args = RandomArguments(explicit_zeros, 42);
  EXPECT_GT(MaxAbsDifference(Evaluate(explicit_zeros, args), Evaluate(uncounted, args)), 1e-3);
}

TEST(FoldPaddingTest, LeavesPadsTheWindowCannotTakeOver) {
  Var x = MakeVar("x", F32({1, 3, 7, 8}));
  const std::vector<int64_t> spatial = {0, 0, 1, 1, 0, 0, 1, 1};
  const std::vector<Expr> kept = {
      Conv3x3(Pad(x, spatial, 0.5)),                                      // not zeros
      Conv3x3(Pad(x, spatial, 0.0, "reflect")),                           // not a constant
      Conv3x3(Pad(x, {0, 0, 1, 1, 0, 0, -1, 1})),                          // crops
      CallOp("nn.max_pool2d", {Pad(x, spatial)}, {{"pool_size", std::vector<int64_t>{2, 2}}}),
      AveragePool3x3(Pad(x, spatial), {1, 1, 1, 1}, 0),                    // own padding not counted
      AveragePool3x3(Pad(x, spatial), {0, 0, 0, 0}, 1, /*ceil_mode=*/1),  // partial last windows
  };
  for (const Expr& window : kept) {
    Function result = RunAndCheckPreserved(FoldPadding(), MakeFunction({x}, window));
    EXPECT_EQ(CountCalls(result, "nn.pad"), 1);
  }
  Var y = MakeVar("y", F32({1, 3, 7, 8}));
  Function channels = MakeFunction({y}, CallOp("nn.avg_pool2d", {Pad(y, {0, 1, 0, 0, 0, 0, 0, 0})},
                                                {{"pool_size", std::vector<int64_t>{2, 2}}}));
  EXPECT_EQ(CountCalls(RunAndCheckPreserved(FoldPadding(), channels), "nn.pad"), 1);
  // A pad with another user stays for that user; the convolution reads the data directly.
  Expr shared = Pad(x, spatial);
  Function both = MakeFunction({x}, MakeTuple({Conv3x3(shared), CallOp("nn.relu", {shared})}));
  Function folded = RunAndCheckPreserved(FoldPadding(), both);
  EXPECT_EQ(CountCalls(folded, "nn.pad"), 1);
  EXPECT_EQ(As<CallNode>(As<TupleNode>(folded->body)->fields[0])->args[0], folded->params[0]);
}

TEST(EliminateCommonSubexprTest, MergesEqualCallsAndConstants) {
  Var x = MakeVar("x", F32({2}));
  Expr a = CallOp("add", {CallOp("nn.relu", {x}), ConstantOf({1, 2}, {2})});
  Expr b = CallOp("add", {CallOp("nn.relu", {x}), ConstantOf({1, 2}, {2})});
  Expr c = CallOp("nn.leaky_relu", {x}, {{"alpha", 0.1}});
  Expr d = CallOp("nn.leaky_relu", {x}, {{"alpha", 0.2}});  // different attrs: kept
  Function function = MakeFunction({x}, MakeTuple({a, b, c, d}));
  Function result = RunAndCheckPreserved(EliminateCommonSubexpr(), function);
  EXPECT_EQ(CountCalls(result, "nn.relu"), 1);
  EXPECT_EQ(CountCalls(result, "add"), 1);
  EXPECT_EQ(CountCalls(result, "nn.leaky_relu"), 2);
  const auto* tuple = As<TupleNode>(result->body);
  EXPECT_EQ(tuple->fields[0], tuple->fields[1]);
}

TEST(DeadCodeEliminationTest, ProjectionsOfBuiltTuplesForward) {
  Var x = MakeVar("x", F32({2}));
  Expr unused = CallOp("exp", {x});
  Expr used = CallOp("nn.relu", {x});
  Function function = MakeFunction({x}, MakeTupleGetItem(MakeTuple({unused, used}), 1));
  Function result = RunAndCheckPreserved(DeadCodeElimination(), function);
  EXPECT_EQ(CountCalls(result, "exp"), 0);
  EXPECT_EQ(result->body->kind(), ExprKind::kCall);
}

int CountFunctions(const Expr& expr) {
  int count = 0;
  for (const Expr& node : PostOrder(expr)) count += As<FunctionNode>(node) != nullptr ? 1 : 0;
  return count;
}

// A FuseOps group written in the input, a pattern match and a partition.
constexpr const char* kGroupsMatchesAndPartitions = R"(def @main(%x: Tensor[(2, 5), f32], %b: Tensor[(5), f32]) {
  %0 = fn (%p0: Tensor[(2, 5), f32], %p1: Tensor[(5), f32]) attrs(Primitive=1) {
    nn.relu(nn.bias_add(%p0, %p1, axis=-1))
  }
  %1 = %0(%x, %b)
  %2 = fn (%q0: Tensor[(2, 5), f32]) attrs(Composite="native.negative") {
    negative(%q0)
  }
  %3 = %2(%1)
  %4 = fn (%r0: Tensor[(2, 5), f32]) attrs(Compiler="reference", Primitive=1, global_symbol="reference_0") {
    exp(%r0)
  }
  %4(%3)
}
)";

TEST(InlinePrimitiveGroupsTest, InlinesGroupsAndKeepsPatternMatchesAndPartitions) {
  const Function function = ParseModule(kGroupsMatchesAndPartitions, "groups.cir").main();
  ASSERT_EQ(CountFunctions(function->body), 3);
  const Function inlined = RunAndCheckPreserved(InlinePrimitiveGroups(), function, 0);
  EXPECT_EQ(CountFunctions(inlined->body), 2);
  EXPECT_EQ(CountCalls(inlined, "nn.relu"), 1);
  EXPECT_EQ(CountCalls(inlined, "nn.bias_add"), 1);
  bool relu_in_main = false;
  for (const Expr& node : PostOrder(inlined->body)) {
    const auto* call = As<CallNode>(node);
    if (call != nullptr && call->op() != nullptr && call->op()->name == "nn.relu") {
      relu_in_main = As<VarNode>(As<CallNode>(call->args[0])->args[0]) != nullptr;
    }
  }
  EXPECT_TRUE(relu_in_main) << "the group's body is bound to @main's parameters";
}

TEST(StandardPipelineTest, PreservesOutputsOnConvBlock) {
  Pass pipeline = Pass::Sequential(
      {InferTypePass(), SimplifyInference(), FoldConstant(), EliminateCommonSubexpr(), DeadCodeElimination()});
  RunAndCheckPreserved(pipeline, MakeConvBatchNorm(true, true), 1e-4);
  RunAndCheckPreserved(pipeline, testing::MakeConvBiasRelu(3));
}

}  // namespace
}  // namespace collage
