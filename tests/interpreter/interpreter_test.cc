#include "interpreter/interpreter.h"

#include <gtest/gtest.h>

#include "runtime/compare.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;

TEST(InterpreterTest, EvaluatesOpsInOrder) {
  Var x = MakeVar("x", F32({3}));
  Var y = MakeVar("y", F32({3}));
  Function function = MakeFunction({x, y}, CallOp("nn.relu", {CallOp("subtract", {x, y})}));
  Value result = Evaluate(function, {Tensor::FromVector<float>({1, 2, 3}, {3}), Tensor::FromVector<float>({3, 1, 0}, {3})});
  const float* out = result.tensor().data<float>();
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 3.0f);
}

TEST(InterpreterTest, NestedFunctionsTuplesAndProjections) {
  Var p = MakeVar("p", F32({2}));
  Var q = MakeVar("q", F32({2}));
  Function inner = MakeFunction({p, q}, MakeTuple({CallOp("add", {p, q}), CallOp("multiply", {p, q})}),
                                {{attr::kPrimitive, int64_t{1}}});
  Var x = MakeVar("x", F32({2}));
  Expr pair = MakeCall(inner, {x, x});
  Function function = MakeFunction({x}, CallOp("subtract", {MakeTupleGetItem(pair, 0), MakeTupleGetItem(pair, 1)}));
  Value result = Evaluate(function, {Tensor::FromVector<float>({3, -1}, {2})});
  // (x + x) - x * x
  EXPECT_EQ(result.tensor().data<float>()[0], 6.0f - 9.0f);
  EXPECT_EQ(result.tensor().data<float>()[1], -2.0f - 1.0f);
}

TEST(InterpreterTest, TupleResultsAndParameterPassThrough) {
  Var x = MakeVar("x", F32({2}));
  Function function = MakeFunction({x}, MakeTuple({x, CallOp("negative", {x})}));
  Value result = Evaluate(function, {Tensor::FromVector<float>({1, 2}, {2})});
  ASSERT_TRUE(result.is_tuple());
  EXPECT_EQ(result.fields()[0].tensor().data<float>()[1], 2.0f);
  EXPECT_EQ(result.fields()[1].tensor().data<float>()[1], -2.0f);
  EXPECT_EQ(result.Flatten().size(), 2u);
}

TEST(InterpreterTest, RejectsMistypedArguments) {
  Var x = MakeVar("x", F32({2}));
  Function function = MakeFunction({x}, CallOp("nn.relu", {x}));
  try {
    Evaluate(function, {Tensor::FromVector<float>({1, 2, 3}, {3})});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("parameter %x: expected Tensor[(2), f32], got Tensor[(3), f32]"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(Evaluate(function, {}), Error);
}

TEST(InterpreterTest, KernelErrorsNameTheNode) {
  Var data = MakeVar("data", F32({3}));
  Var indices = MakeVar("indices", TensorType(DType::kI64, {1}));
  Call take = CallOp("take", {data, indices});
  take->set_location({"g.cir", 2, 3});
  Function function = MakeFunction({data, indices}, take);
  try {
    Evaluate(function, {Tensor::FromVector<float>({1, 2, 3}, {3}), Tensor::FromVector<int64_t>({7}, {1})});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("interpreter: call to take at g.cir:2:3: ", 0), 0u) << error.what();
  }
}

TEST(InterpreterTest, RandomArgumentsAreSeededAndTyped) {
  Var x = MakeVar("x", F32({2, 3}));
  Var y = MakeVar("y", TensorType(DType::kI64, {4}));
  Function function = MakeFunction({x, y}, x);
  std::vector<Value> a = RandomArguments(function, 3);
  std::vector<Value> b = RandomArguments(function, 3);
  std::vector<Value> c = RandomArguments(function, 4);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_TRUE(a[0].tensor().BitwiseEqual(b[0].tensor()));
  EXPECT_FALSE(a[0].tensor().BitwiseEqual(c[0].tensor()));
  EXPECT_EQ(a[1].tensor().dtype(), DType::kI64);
  for (int i = 0; i < 4; ++i) {
    EXPECT_GE(a[1].tensor().data<int64_t>()[i], 0);
    EXPECT_LE(a[1].tensor().data<int64_t>()[i], 10);
  }
}

TEST(InterpreterTest, ConvBiasReluMatchesDirectComputation) {
  Function function = testing::MakeConvBiasRelu(5);
  std::vector<Value> args = RandomArguments(function, 11);
  const Tensor& x = args[0].tensor();
  Value result = Evaluate(function, args);
  const Tensor& out = result.tensor();
  const auto* conv = As<CallNode>(As<CallNode>(As<CallNode>(function->body)->args[0])->args[0]);
  const Tensor& weight = As<ConstantNode>(conv->args[1])->data;
  const Tensor& bias = As<ConstantNode>(As<CallNode>(As<CallNode>(function->body)->args[0])->args[1])->data;
  // Direct 3x3 convolution with padding 1 on a 6x5 input.
  Tensor expected = Tensor::Zeros(DType::kF32, out.shape());
  for (int o = 0; o < 4; ++o) {
    for (int h = 0; h < 6; ++h) {
      for (int w = 0; w < 5; ++w) {
        double sum = bias.data<float>()[o];
        for (int c = 0; c < 3; ++c) {
          for (int kh = 0; kh < 3; ++kh) {
            for (int kw = 0; kw < 3; ++kw) {
              int ih = h + kh - 1, iw = w + kw - 1;
              if (ih < 0 || ih >= 6 || iw < 0 || iw >= 5) continue;
              sum += double(x.data<float>()[(c * 6 + ih) * 5 + iw]) * weight.data<float>()[((o * 3 + c) * 3 + kh) * 3 + kw];
            }
          }
        }
        expected.SetFromDouble((o * 6 + h) * 5 + w, std::max(sum, 0.0));
      }
    }
  }
  const Comparison comparison = CompareValues(out, expected, Tolerance{1e-6});
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
}

}  // namespace
}  // namespace collage
