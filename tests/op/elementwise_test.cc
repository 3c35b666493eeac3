// Tests of the elementwise ops (src/op/elementwise.cc): hand-computed kernel results on odd
// shapes, numpy broadcasting, dtype handling and type-relation errors through InferType.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op/op_test_util.h"

namespace collage {
namespace {

using op_test::Bool;
using op_test::EvaluateOp;
using op_test::EvaluateOpToTensor;
using op_test::F32;
using op_test::I32;
using op_test::I64;
using op_test::InferTypeError;
using op_test::MessageHas;
using op_test::TensorIs;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kTwoToThe62 = int64_t{1} << 62;

Type F32Type(Shape shape) { return TensorType(DType::kF32, std::move(shape)); }

TEST(ElementwiseTest, PatternKinds) {
  auto kind = [](const char* name) { return OpRegistry::Global().Get(name).pattern_kind; };
  for (const char* name : {"nn.relu", "nn.gelu", "clip", "logical_not", "cast"}) {
    EXPECT_EQ(kind(name), OpPatternKind::kElemWise) << name;
  }
  for (const char* name : {"add", "power", "less", "logical_or", "where"}) {
    EXPECT_EQ(kind(name), OpPatternKind::kBroadcast) << name;
  }
}

TEST(ElementwiseTest, ReluOnFloat) {
  Tensor x = F32({-3, -2, -1, 0, 1, 2, 3, -0.5, 0.5, -4, 5, -6, 7, -8, 9}, {3, 5});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("nn.relu", {x}), DType::kF32, {3, 5},
                       {0, 0, 0, 0, 1, 2, 3, 0, 0.5, 0, 5, 0, 7, 0, 9}));
}

TEST(ElementwiseTest, ReluOnIntegersKeepsDTypeAndExactValues) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("nn.relu", {I32({-5, 0, 5, -1, 2, -7}, {2, 3, 1})}), DType::kI32,
                       {2, 3, 1}, {0, 0, 5, 0, 2, 0}));
  Tensor relu = EvaluateOpToTensor("nn.relu", {I64({-kTwoToThe62, kTwoToThe62 + 1}, {2})});
  ASSERT_EQ(relu.dtype(), DType::kI64);
  EXPECT_EQ(relu.data<int64_t>()[0], 0);
  EXPECT_EQ(relu.data<int64_t>()[1], kTwoToThe62 + 1);
}

TEST(ElementwiseTest, LeakyReluDefaultAndGivenAlpha) {
  Tensor x = F32({-2, -1, 0, 3}, {1, 4});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("nn.leaky_relu", {x}), DType::kF32, {1, 4}, {-0.02, -0.01, 0, 3}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("nn.leaky_relu", {x}, {{"alpha", 0.5}}), DType::kF32, {1, 4},
                       {-1, -0.5, 0, 3}));
}

struct UnaryCase {
  const char* op;
  std::vector<float> input;
  std::vector<double> expected;
};

TEST(ElementwiseTest, UnaryMathOnFloat) {
  const float ln3 = 1.0986122886681098f;
  const float ln2 = 0.6931471805599453f;
  const std::vector<UnaryCase> cases = {
      {"sigmoid", {0, ln3, -ln3}, {0.5, 0.75, 0.25}},
      {"tanh", {0, ln2, -ln2}, {0, 0.6, -0.6}},
      {"erf", {0, 1, -1}, {0, 0.8427007929, -0.8427007929}},
      {"exp", {0, 1, -1}, {1, 2.7182818285, 0.3678794412}},
      {"log", {1, 8, 0}, {0, 2.0794415417, -kInf}},
      {"sqrt", {9, 2.25, 0}, {3, 1.5, 0}},
      {"rsqrt", {4, 0.25, 1}, {0.5, 2, 1}},
      {"floor", {2.5, -2.5, 3}, {2, -3, 3}},
      {"ceil", {2.5, -2.5, 3}, {3, -2, 3}},
      {"abs", {-2.5, 0, 3}, {2.5, 0, 3}},
      {"negative", {-2.5, 0, 3}, {2.5, 0, -3}},
  };
  for (const UnaryCase& unary : cases) {
    EXPECT_TRUE(TensorIs(EvaluateOpToTensor(unary.op, {F32(unary.input, {3, 1})}), DType::kF32, {3, 1},
                         unary.expected))
        << unary.op;
  }
}

TEST(ElementwiseTest, RoundHalvesToEven) {
  Tensor x = F32({0.5, 1.5, 2.5, -0.5, -1.5, 2.6}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("round", {x}), DType::kF32, {2, 3}, {0, 2, 2, 0, -2, 3}));
}

TEST(ElementwiseTest, GeluExactAndTanhApproximation) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("nn.gelu", {F32({0, 1, -1}, {3})}), DType::kF32, {3},
                       {0, 0.8413447461, -0.1586552539}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("nn.gelu", {F32({1, -1, 2}, {3})}, {{"approximate", std::string("tanh")}}),
                       DType::kF32, {3}, {0.8411919906, -0.1588080094, 1.9545976941}));
}

TEST(ElementwiseTest, GeluRejectsUnknownApproximation) {
  const std::string message = InferTypeError("nn.gelu", {F32Type({2})}, {{"approximate", std::string("fast")}});
  EXPECT_TRUE(MessageHas(message, {"nn.gelu: ", "approximate", "\"fast\"", "\"tanh\""}));
}

TEST(ElementwiseTest, AbsAndNegativeOnIntegers) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("abs", {I32({-3, 0, 4}, {3})}), DType::kI32, {3}, {3, 0, 4}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("negative", {I64({-3, 0, 4}, {3})}), DType::kI64, {3}, {3, 0, -4}));
}

TEST(ElementwiseTest, ClipFloatAndInteger) {
  const Attrs bounds = {{"a_min", -1.0}, {"a_max", 2.0}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("clip", {F32({-3, -1, 0, 1.5, 2, 7}, {2, 3})}, bounds), DType::kF32, {2, 3},
                       {-1, -1, 0, 1.5, 2, 2}));
  // Integers clamp to the integers inside [0.5, 3.7], i.e. [1, 3].
  const Attrs fractional = {{"a_min", 0.5}, {"a_max", 3.7}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("clip", {I32({-2, 0, 1, 3, 4, 9}, {3, 2})}, fractional), DType::kI32,
                       {3, 2}, {1, 1, 1, 3, 3, 3}));
}

TEST(ElementwiseTest, ClipRequiresBothBounds) {
  const std::string message = InferTypeError("clip", {F32Type({2})}, {{"a_min", 0.0}});
  EXPECT_TRUE(MessageHas(message, {"clip: ", "missing required attribute 'a_max'"}));
}

TEST(ElementwiseTest, LogicalNotOnBool) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("logical_not", {Bool({true, false, false, true, true}, {5, 1})}),
                       DType::kBool, {5, 1}, {0, 1, 1, 0, 0}));
}

TEST(ElementwiseTest, UnaryRelationsRejectUnsupportedDTypes) {
  EXPECT_TRUE(MessageHas(InferTypeError("sigmoid", {TensorType(DType::kI32, {2, 3})}),
                         {"sigmoid: ", "data must be floating point, got i32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("logical_not", {F32Type({2})}), {"logical_not: ", "data must be bool, got f32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("nn.relu", {TensorType(DType::kBool, {2})}),
                         {"nn.relu: ", "floating point or integer, got bool"}));
}

TEST(ElementwiseTest, UnaryRelationRejectsATupleArgument) {
  const Type tuple = TupleType({F32Type({2}), F32Type({2})});
  EXPECT_TRUE(MessageHas(InferTypeError("exp", {tuple}), {"exp: ", "argument 0 (data) must be a tensor"}));
}

TEST(ElementwiseTest, KernelRejectsUnsupportedDType) {
  const OpDef& exp = OpRegistry::Global().Get("exp");
  const Tensor x = I32({1, 2}, {2});
  try {
    exp.reference_kernel({x}, {}, TensorType(DType::kI32, {2}));
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_TRUE(MessageHas(error.what(), {"exp", "does not support dtype i32"}));
  }
}

TEST(ElementwiseTest, AddBroadcastsARow) {
  Tensor lhs = F32({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, {3, 5});
  Tensor rhs = F32({10, 20, 30, 40, 50}, {5});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("add", {lhs, rhs}), DType::kF32, {3, 5},
                       {10, 21, 32, 43, 54, 15, 26, 37, 48, 59, 20, 31, 42, 53, 64}));
}

TEST(ElementwiseTest, MultiplyBroadcastsAColumnAgainstARow) {
  Tensor column = F32({1, 2, 3}, {3, 1});
  Tensor row = F32({1, 10, 100, 1000, -1}, {1, 5});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("multiply", {column, row}), DType::kF32, {3, 5},
                       {1, 10, 100, 1000, -1, 2, 20, 200, 2000, -2, 3, 30, 300, 3000, -3}));
}

TEST(ElementwiseTest, SubtractBroadcastsAScalarOnEitherSide) {
  Tensor scalar = F32({10}, {});
  Tensor matrix = F32({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("subtract", {scalar, matrix}), DType::kF32, {2, 3}, {9, 8, 7, 6, 5, 4}));
  EXPECT_TRUE(
      TensorIs(EvaluateOpToTensor("subtract", {matrix, scalar}), DType::kF32, {2, 3}, {-9, -8, -7, -6, -5, -4}));
}

TEST(ElementwiseTest, AddBroadcastsAcrossRanks) {
  Tensor lhs = I32({1, 2, 3, 4, 5, 6}, {2, 1, 3});
  Tensor rhs = I32({10, 20, 30, 40}, {4, 1});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("add", {lhs, rhs}), DType::kI32, {2, 4, 3},
                       {11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43,
                        14, 15, 16, 24, 25, 26, 34, 35, 36, 44, 45, 46}));
}

TEST(ElementwiseTest, IntegerArithmeticIsExactAndWraps) {
  Tensor sum = EvaluateOpToTensor("add", {I64({kTwoToThe62, -kTwoToThe62}, {2}), I64({1, -1}, {2})});
  EXPECT_EQ(sum.data<int64_t>()[0], kTwoToThe62 + 1);
  EXPECT_EQ(sum.data<int64_t>()[1], -kTwoToThe62 - 1);
  Tensor wrapped = EvaluateOpToTensor("add", {I32({2147483647}, {1}), I32({1}, {1})});
  EXPECT_EQ(wrapped.data<int32_t>()[0], -2147483647 - 1);
  Tensor product = EvaluateOpToTensor("multiply", {I64({3037000499}, {1}), I64({3037000499}, {1})});
  EXPECT_EQ(product.data<int64_t>()[0], 9223372030926249001);
}

TEST(ElementwiseTest, DivideFloatAndTruncatingInteger) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("divide", {F32({7, -7, 1}, {3}), F32({2, 2, 0}, {3})}), DType::kF32, {3},
                       {3.5, -3.5, kInf}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("divide", {I32({7, -7, 7, -7}, {2, 2}), I32({2, 2, -2, -2}, {2, 2})}),
                       DType::kI32, {2, 2}, {3, -3, -3, 3}));
}

TEST(ElementwiseTest, IntegerDivisionByZeroIsAnError) {
  EXPECT_THROW(EvaluateOp("divide", {I32({1, 2}, {2}), I32({1, 0}, {2})}), Error);
}

TEST(ElementwiseTest, PowerFloatAndInteger) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("power", {F32({2, 4, 2}, {3}), F32({3, 0.5, -1}, {3})}), DType::kF32, {3},
                       {8, 2, 0.5}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("power", {I64({2, 3, 2, -1, -2}, {5}), I64({10, 0, -1, -3, 3}, {5})}),
                       DType::kI64, {5}, {1024, 1, 0, -1, -8}));
}

TEST(ElementwiseTest, MaximumAndMinimumPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor lhs = F32({1, 5, nan, -2}, {2, 2});
  Tensor rhs = F32({3, 2, 0, nan}, {2, 2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("maximum", {lhs, rhs}), DType::kF32, {2, 2}, {3, 5, kNaN, kNaN}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("minimum", {lhs, rhs}), DType::kF32, {2, 2}, {1, 2, kNaN, kNaN}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("maximum", {I32({-4, 7, 0}, {3}), I32({1}, {})}), DType::kI32, {3},
                       {1, 7, 1}));
}

TEST(ElementwiseTest, ComparisonsBroadcastToBool) {
  Tensor column = I32({1, 2, 3}, {3, 1});
  Tensor row = I32({1, 2, 3}, {1, 3});
  const std::vector<std::pair<const char*, std::vector<double>>> cases = {
      {"less", {0, 1, 1, 0, 0, 1, 0, 0, 0}},          {"less_equal", {1, 1, 1, 0, 1, 1, 0, 0, 1}},
      {"greater", {0, 0, 0, 1, 0, 0, 1, 1, 0}},       {"greater_equal", {1, 0, 0, 1, 1, 0, 1, 1, 1}},
      {"equal", {1, 0, 0, 0, 1, 0, 0, 0, 1}},         {"not_equal", {0, 1, 1, 1, 0, 1, 1, 1, 0}},
  };
  for (const auto& [op, expected] : cases) {
    EXPECT_TRUE(TensorIs(EvaluateOpToTensor(op, {column, row}), DType::kBool, {3, 3}, expected)) << op;
  }
}

TEST(ElementwiseTest, EqualityOfNaNAndOfLargeIntegers) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("equal", {F32({nan, 1}, {2}), F32({nan, 1}, {2})}), DType::kBool, {2},
                       {0, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("not_equal", {F32({nan, 1}, {2}), F32({nan, 1}, {2})}), DType::kBool, {2},
                       {1, 0}));
  // 2^62 and 2^62 + 1 are the same double; as integers they differ.
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("equal", {I64({kTwoToThe62}, {1}), I64({kTwoToThe62 + 1}, {1})}),
                       DType::kBool, {1}, {0}));
}

TEST(ElementwiseTest, LogicalAndOrBroadcast) {
  Tensor lhs = Bool({true, true, false, false}, {2, 2});
  Tensor rhs = Bool({true, false}, {2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("logical_and", {lhs, rhs}), DType::kBool, {2, 2}, {1, 0, 0, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("logical_or", {lhs, rhs}), DType::kBool, {2, 2}, {1, 1, 1, 0}));
}

TEST(ElementwiseTest, BinaryRelationErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("add", {F32Type({2, 3}), TensorType(DType::kI32, {2, 3})}),
                         {"add: ", "lhs is f32 but rhs is i32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("multiply", {F32Type({2, 3}), F32Type({4})}),
                         {"multiply: ", "cannot broadcast shapes (2, 3) and (4)", "3 vs 4"}));
  EXPECT_TRUE(MessageHas(InferTypeError("add", {TensorType(DType::kBool, {2}), TensorType(DType::kBool, {2})}),
                         {"add: ", "lhs must be floating point or integer, got bool"}));
  EXPECT_TRUE(MessageHas(InferTypeError("logical_and", {F32Type({2}), F32Type({2})}),
                         {"logical_and: ", "lhs must be bool, got f32"}));
}

TEST(ElementwiseTest, WhereBroadcastsThreeWays) {
  Tensor condition = Bool({true, false}, {2, 1});
  Tensor x = F32({1, 2, 3}, {3});
  Tensor y = F32({-1}, {});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("where", {condition, x, y}), DType::kF32, {2, 3}, {1, 2, 3, -1, -1, -1}));
  Tensor picked = EvaluateOpToTensor("where", {Bool({false, true}, {2}), I64({1, 2}, {2}), I64({kTwoToThe62 + 1}, {1})});
  ASSERT_EQ(picked.dtype(), DType::kI64);
  EXPECT_EQ(picked.data<int64_t>()[0], kTwoToThe62 + 1);
  EXPECT_EQ(picked.data<int64_t>()[1], 2);
}

TEST(ElementwiseTest, WhereRelationErrors) {
  const Type bool2 = TensorType(DType::kBool, {2});
  EXPECT_TRUE(MessageHas(InferTypeError("where", {F32Type({2}), F32Type({2}), F32Type({2})}),
                         {"where: ", "condition must be bool, got f32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("where", {bool2, TensorType(DType::kI32, {2}), F32Type({2})}),
                         {"where: ", "x is i32 but y is f32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("where", {bool2, F32Type({3}), F32Type({3})}),
                         {"where: ", "condition and x: cannot broadcast"}));
  EXPECT_TRUE(MessageHas(InferTypeError("where", {TensorType(DType::kBool, {2, 1}), F32Type({3}), F32Type({4})}),
                         {"where: ", "condition, x and y: cannot broadcast shapes (2, 3) and (4)"}));
}

TEST(ElementwiseTest, CastFloatToIntegersTruncatesAndSaturates) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = F32({2.7f, -2.7f, 0.5f, 0, 3e9f, nan}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cast", {x}, {{"dtype", std::string("i32")}}), DType::kI32, {2, 3},
                       {2, -2, 0, 0, 2147483647, 0}));
  Tensor huge = EvaluateOpToTensor("cast", {F32({-1e20f}, {1})}, {{"dtype", std::string("i64")}});
  EXPECT_EQ(huge.data<int64_t>()[0], std::numeric_limits<int64_t>::min());
}

TEST(ElementwiseTest, CastToAndFromBool) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cast", {F32({2.7f, -0.5f, 0, nan}, {4})}, {{"dtype", std::string("bool")}}),
                       DType::kBool, {4}, {1, 1, 0, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cast", {Bool({true, false}, {2})}, {{"dtype", std::string("f32")}}),
                       DType::kF32, {2}, {1, 0}));
}

TEST(ElementwiseTest, CastBetweenIntegersIsExact) {
  Tensor same = EvaluateOpToTensor("cast", {I64({kTwoToThe62 + 1, -kTwoToThe62 - 3}, {2})}, {{"dtype", std::string("i64")}});
  EXPECT_EQ(same.data<int64_t>()[0], kTwoToThe62 + 1);
  EXPECT_EQ(same.data<int64_t>()[1], -kTwoToThe62 - 3);
  Tensor widened = EvaluateOpToTensor("cast", {I32({-7, 5}, {2})}, {{"dtype", std::string("i64")}});
  EXPECT_EQ(widened.data<int64_t>()[0], -7);
  EXPECT_EQ(widened.data<int64_t>()[1], 5);
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cast", {I64({3, -5}, {2})}, {{"dtype", std::string("f32")}}), DType::kF32,
                       {2}, {3, -5}));
}

TEST(ElementwiseTest, CastRejectsAnUnknownDType) {
  EXPECT_TRUE(MessageHas(InferTypeError("cast", {F32Type({2})}, {{"dtype", std::string("float32")}}),
                         {"cast: ", "attribute dtype", "\"float32\""}));
  EXPECT_TRUE(MessageHas(InferTypeError("cast", {F32Type({2})}), {"cast: ", "missing required attribute 'dtype'"}));
}

TEST(ElementwiseTest, SignOnFloatAndInteger) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sign", {F32({-2.5f, 0.0f, 3.0f, -0.0f}, {2, 2})}), DType::kF32, {2, 2},
                       {-1, 0, 1, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sign", {I64({-7, 0, 9}, {3})}), DType::kI64, {3}, {-1, 0, 1}));
}

TEST(ElementwiseTest, TrigonometricAndHyperbolicFunctions) {
  Tensor x = F32({0.0f, 0.5f}, {2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sin", {x}), DType::kF32, {2}, {0, 0.479425538604203}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cos", {x}), DType::kF32, {2}, {1, 0.877582561890373}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("tan", {x}), DType::kF32, {2}, {0, 0.546302489843790}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("asin", {x}), DType::kF32, {2}, {0, 0.523598775598299}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("acos", {x}), DType::kF32, {2}, {1.570796326794897, 1.047197551196598},
                       1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("atan", {x}), DType::kF32, {2}, {0, 0.463647609000806}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sinh", {x}), DType::kF32, {2}, {0, 0.521095305493747}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cosh", {x}), DType::kF32, {2}, {1, 1.127625965206381}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("asinh", {x}), DType::kF32, {2}, {0, 0.481211825059603}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("atanh", {x}), DType::kF32, {2}, {0, 0.549306144334055}, 1e-6));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("acosh", {F32({1.0f, 2.0f}, {2})}), DType::kF32, {2},
                       {0, 1.316957896924816}, 1e-6));
  EXPECT_TRUE(MessageHas(InferTypeError("sin", {TensorType(DType::kI32, {2})}), {"sin: ", "floating point"}));
}

TEST(ElementwiseTest, RemaindersTakeTheSignOfTheDividendOrTheDivisor) {
  Tensor a = I64({7, -7, 7, -7}, {4});
  Tensor b = I64({3, 3, -3, -3}, {4});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("truncated_mod", {a, b}), DType::kI64, {4}, {1, -1, 1, -1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("floor_mod", {a, b}), DType::kI64, {4}, {1, 2, -2, -1}));
  Tensor x = F32({5.5f, -5.5f}, {2});
  Tensor y = F32({2.0f, 2.0f}, {2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("truncated_mod", {x, y}), DType::kF32, {2}, {1.5, -1.5}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("floor_mod", {x, y}), DType::kF32, {2}, {1.5, 0.5}));
  EXPECT_THROW(EvaluateOp("floor_mod", {I64({1}, {1}), I64({0}, {1})}), Error);
}

TEST(ElementwiseTest, ShiftsWrapToTheDTypeAndShiftOutPastTheWidth) {
  Tensor left = EvaluateOpToTensor("left_shift", {Tensor::FromVector<uint8_t>({255, 1, 3}, {3}),
                                                  Tensor::FromVector<uint8_t>({1, 7, 8}, {3})});
  EXPECT_TRUE(TensorIs(left, DType::kU8, {3}, {254, 128, 0}));
  Tensor right = EvaluateOpToTensor("right_shift", {Tensor::FromVector<uint64_t>({16, 4, 1}, {3}),
                                                    Tensor::FromVector<uint64_t>({1, 2, 64}, {3})});
  EXPECT_TRUE(TensorIs(right, DType::kU64, {3}, {8, 1, 0}));
  // u32 keeps values above int32's range.
  Tensor wide = EvaluateOpToTensor("left_shift", {Tensor::FromVector<uint32_t>({1}, {1}),
                                                  Tensor::FromVector<uint32_t>({31}, {1})});
  EXPECT_EQ(wide.data<uint32_t>()[0], 2147483648u);
  EXPECT_TRUE(MessageHas(InferTypeError("left_shift", {F32Type({2}), F32Type({2})}), {"lhs must be integer, got f32"}));
}

TEST(ElementwiseTest, WideDTypesComputeExactly) {
  // f64 keeps what f32 would round away.
  Tensor sum = EvaluateOpToTensor("add", {Tensor::FromVector<double>({1.0, 1e300}, {2}),
                                          Tensor::FromVector<double>({std::ldexp(1.0, -40), 1e300}, {2})});
  ASSERT_EQ(sum.dtype(), DType::kF64);
  EXPECT_EQ(sum.data<double>()[0], 1.0 + std::ldexp(1.0, -40));
  EXPECT_EQ(sum.data<double>()[1], 2e300);
  Tensor maximum = EvaluateOpToTensor("maximum", {Tensor::FromVector<uint16_t>({65535, 1}, {2}),
                                                  Tensor::FromVector<uint16_t>({0, 2}, {2})});
  EXPECT_TRUE(TensorIs(maximum, DType::kU16, {2}, {65535, 2}));
  Tensor minimum = EvaluateOpToTensor("minimum", {Tensor::FromVector<int16_t>({-32768, 5}, {2}),
                                                  Tensor::FromVector<int16_t>({0, 4}, {2})});
  EXPECT_TRUE(TensorIs(minimum, DType::kI16, {2}, {-32768, 4}));
  Tensor remainder = EvaluateOpToTensor("floor_mod", {Tensor::FromVector<uint32_t>({4294967295u}, {1}),
                                                      Tensor::FromVector<uint32_t>({10}, {1})});
  EXPECT_EQ(remainder.data<uint32_t>()[0], 5u);
}

TEST(ElementwiseTest, U64AboveTheInt64RangeIsRefusedNotWrapped) {
  const uint64_t large = (uint64_t{1} << 63) + 1;
  try {
    EvaluateOpToTensor("maximum", {Tensor::FromVector<uint64_t>({large}, {1}), Tensor::FromVector<uint64_t>({1}, {1})});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_TRUE(MessageHas(error.what(), {"u64 element 9223372036854775809", "above 2^63 - 1"}));
  }
  // Below the limit u64 computes exactly.
  Tensor maximum = EvaluateOpToTensor("maximum", {Tensor::FromVector<uint64_t>({large - 2}, {1}),
                                                  Tensor::FromVector<uint64_t>({1}, {1})});
  EXPECT_EQ(maximum.data<uint64_t>()[0], large - 2);
}

}  // namespace
}  // namespace collage
