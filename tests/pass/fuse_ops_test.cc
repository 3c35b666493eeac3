#include "pass/fuse_ops/fuse_ops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;
using Groups = std::vector<std::vector<std::string>>;

// The op names inside each primitive function, in the order the outer body calls them.
Groups PrimitiveGroups(const Function& function) {
  Groups groups;
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* primitive = call ? As<FunctionNode>(call->callee) : nullptr;
    if (primitive == nullptr || !primitive->attrs.Has(attr::kPrimitive)) continue;
    std::vector<std::string> ops;
    for (const Expr& inner : PostOrder(primitive->body)) {
      if (const auto* call = As<CallNode>(inner); call && call->op()) ops.push_back(call->op()->name);
    }
    groups.push_back(ops);
  }
  return groups;
}

// Fuses and checks that the interpreter's outputs are unchanged.
Function FuseAndCheck(const Function& function, int opt_level = 2, int64_t max_depth = 256) {
  PassContext context;
  context.opt_level = opt_level;
  Pass fuse = FuseOps();
  context.SetConfig("FuseOps.max_depth", max_depth);
  Function fused = fuse(Module(function), context).main();
  std::vector<Value> args = RandomArguments(function, 9);
  const Tensor expected = Evaluate(function, args).Flatten()[0];
  const Tensor actual = Evaluate(fused, args).Flatten()[0];
  for (int64_t i = 0; i < expected.NumElements(); ++i) EXPECT_EQ(expected.GetAsDouble(i), actual.GetAsDouble(i));
  // No op call is left outside a primitive function.
  for (const Expr& node : PostOrder(fused->body, false)) {
    const auto* call = As<CallNode>(node);
    EXPECT_FALSE(call && call->op()) << "unfused call to " << call->op()->name;
  }
  return fused;
}

Constant Weight(Shape shape) { return MakeConstant(Tensor::Random(DType::kF32, std::move(shape), 3)); }

TEST(FuseOpsTest, ConvBiasReluIsOneKernel) {
  EXPECT_EQ(PrimitiveGroups(FuseAndCheck(testing::MakeConvBiasRelu())),
            (Groups{{"nn.conv2d", "nn.bias_add", "nn.relu"}}));
}

TEST(FuseOpsTest, OptLevelZeroKeepsOneOpPerKernel) {
  EXPECT_EQ(PrimitiveGroups(FuseAndCheck(testing::MakeConvBiasRelu(), 0)),
            (Groups{{"nn.conv2d"}, {"nn.bias_add"}, {"nn.relu"}}));
}

TEST(FuseOpsTest, ConvWithThreeConsumersReconvergingOnAdd) {
  // conv feeds relu, exp and a scalar multiply, which meet again in two adds: every path
  // from the conv to its post-dominator (the last add) is elementwise, so all fuse.
  Var x = MakeVar("x", F32({1, 2, 4, 4}));
  Expr conv = CallOp("nn.conv2d", {x, Weight({3, 2, 1, 1})});
  Expr scaled = CallOp("multiply", {conv, MakeConstant(Tensor::FromVector<float>({0.5f}, {}))});
  Expr sum = CallOp("add", {CallOp("add", {CallOp("nn.relu", {conv}), CallOp("exp", {conv})}), scaled});
  Groups groups = PrimitiveGroups(FuseAndCheck(MakeFunction({x}, sum)));
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].size(), 6u);
}

TEST(FuseOpsTest, InjectiveOnOnePathStopsTheAnchor) {
  // One path from the conv goes through a transpose (injective), which an anchor's epilogue
  // may not contain; the conv stays alone while the rest fuses behind it.
  Var x = MakeVar("x", F32({1, 2, 4, 4}));
  Expr conv = CallOp("nn.conv2d", {x, Weight({2, 2, 1, 1})});
  Expr flipped = CallOp("transpose", {conv}, {{"axes", std::vector<int64_t>{0, 1, 3, 2}}});
  Expr sum = CallOp("add", {CallOp("nn.relu", {conv}), flipped});
  Groups groups = PrimitiveGroups(FuseAndCheck(MakeFunction({x}, sum)));
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], (std::vector<std::string>{"nn.conv2d"}));
  EXPECT_EQ(groups[1].size(), 3u);
}

TEST(FuseOpsTest, ElementwiseFusesIntoReductionWhichEndsTheKernel) {
  Var x = MakeVar("x", F32({3, 5}));
  Expr reduced = CallOp("sum", {CallOp("exp", {x})}, {{"axis", std::vector<int64_t>{1}}});
  Groups groups = PrimitiveGroups(FuseAndCheck(MakeFunction({x}, CallOp("sqrt", {reduced}))));
  EXPECT_EQ(groups, (Groups{{"exp", "sum"}, {"sqrt"}}));
}

TEST(FuseOpsTest, SoftmaxShapedGraphKeepsReductionSeparate) {
  // exp has two paths to the divide, one through the reduction: it cannot fuse across it.
  Var x = MakeVar("x", F32({2, 7}));
  Expr e = CallOp("exp", {x});
  Expr s = CallOp("sum", {e}, {{"axis", std::vector<int64_t>{1}}, {"keepdims", int64_t{1}}});
  Groups groups = PrimitiveGroups(FuseAndCheck(MakeFunction({x}, CallOp("divide", {e, s}))));
  EXPECT_EQ(groups, (Groups{{"exp"}, {"sum"}, {"divide"}}));
}

TEST(FuseOpsTest, ElementwiseFusesIntoConcatenate) {
  Var x = MakeVar("x", F32({2, 3}));
  Expr joined = CallOp("concatenate", {CallOp("nn.relu", {x}), CallOp("exp", {x})}, {{"axis", int64_t{1}}});
  EXPECT_EQ(PrimitiveGroups(FuseAndCheck(MakeFunction({x}, joined))),
            (Groups{{"nn.relu", "exp", "concatenate"}}));
}

TEST(FuseOpsTest, NothingFusesIntoAResultTuple) {
  Var x = MakeVar("x", F32({2, 3}));
  Function function = MakeFunction({x}, MakeTuple({CallOp("nn.relu", {x}), CallOp("exp", {x})}));
  Function fused = FuseAndCheck(function);
  EXPECT_EQ(PrimitiveGroups(fused), (Groups{{"nn.relu"}, {"exp"}}));
  EXPECT_EQ(fused->body->kind(), ExprKind::kTuple);
}

TEST(FuseOpsTest, OpaqueCallsBlockFusion) {
  Var p = MakeVar("p", F32({4}));
  Function opaque = MakeFunction({p}, CallOp("negative", {p}));  // a call to a plain function is opaque
  Var x = MakeVar("x", F32({4}));
  Function function = MakeFunction({x}, CallOp("exp", {MakeCall(opaque, {CallOp("nn.relu", {x})})}));
  Function fused = FuseAndCheck(function);
  EXPECT_EQ(PrimitiveGroups(fused), (Groups{{"nn.relu"}, {"exp"}}));
}

TEST(FuseOpsTest, MaxDepthBoundsGroupSize) {
  Var x = MakeVar("x", F32({4}));
  Expr chain = x;
  for (int i = 0; i < 10; ++i) chain = CallOp("nn.relu", {chain});
  Groups groups = PrimitiveGroups(FuseAndCheck(MakeFunction({x}, chain), 2, 4));
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].size(), 4u);
  EXPECT_EQ(groups[1].size(), 4u);
  EXPECT_EQ(groups[2].size(), 2u);
}

TEST(FuseOpsTest, NonScalarConstantsBecomeParametersScalarsAreInlined) {
  Var x = MakeVar("x", F32({3}));
  Expr body = CallOp("add", {CallOp("multiply", {x, MakeConstant(Tensor::FromVector<float>({2.0f}, {}))}),
                             MakeConstant(Tensor::FromVector<float>({1, 2, 3}, {3}))});
  Function fused = FuseAndCheck(MakeFunction({x}, body));
  const auto* call = As<CallNode>(fused->body);
  ASSERT_NE(call, nullptr);
  const auto* primitive = As<FunctionNode>(call->callee);
  ASSERT_NE(primitive, nullptr);
  EXPECT_EQ(primitive->params.size(), 2u);  // x and the vector constant
}

}  // namespace
}  // namespace collage
