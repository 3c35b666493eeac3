#include "frontend/onnx/folding_builder.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

TEST(FoldingBuilderTest, CallOnConstantsIsFoldedToAConstant) {
  FoldingBuilder builder(1 << 20);
  Expr lhs = builder.Constant(Tensor::FromVector<int64_t>({1, 2, 3}, {3}));
  Expr rhs = builder.Constant(Tensor::FromVector<int64_t>({10, 20, 30}, {3}));
  Expr sum = builder.Call("add", {lhs, rhs});
  const Tensor* value = ConstantValue(sum);
  ASSERT_NE(value, nullptr);
  EXPECT_TRUE(value->BitwiseEqual(Tensor::FromVector<int64_t>({11, 22, 33}, {3})));
  EXPECT_EQ(TypeToString(sum->checked_type()), "Tensor[(3), i64]");
}

TEST(FoldingBuilderTest, CallOnAVariableStaysACallWithItsType) {
  FoldingBuilder builder(1 << 20);
  Var x = builder.Variable("x", TensorType(DType::kF32, {2, 3}));
  Expr result = builder.Call("transpose", {x}, {{"axes", std::vector<int64_t>{1, 0}}});
  EXPECT_EQ(ConstantValue(result), nullptr);
  ASSERT_NE(As<CallNode>(result), nullptr);
  EXPECT_EQ(TensorTypeOf(result).shape, (Shape{3, 2}));
}

TEST(FoldingBuilderTest, ResultsAboveTheLimitAreNotFolded) {
  FoldingBuilder builder(8);  // bytes: the 3 x i64 result (24 bytes) is too large
  Expr lhs = builder.Constant(Tensor::FromVector<int64_t>({1, 2, 3}, {3}));
  Expr sum = builder.Call("add", {lhs, lhs});
  EXPECT_EQ(ConstantValue(sum), nullptr);
  EXPECT_EQ(TensorTypeOf(sum).shape, (Shape{3}));
}

TEST(FoldingBuilderTest, SplitOfAConstantGivesConstantFields) {
  FoldingBuilder builder(1 << 20);
  Expr data = builder.Constant(Tensor::FromVector<int64_t>({1, 2, 3, 4, 5}, {5}));
  Expr pieces = builder.Call("split", {data}, {{"sizes", std::vector<int64_t>{2, 3}}});
  const Tensor* second = ConstantValue(builder.TupleItem(pieces, 1));
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(second->BitwiseEqual(Tensor::FromVector<int64_t>({3, 4, 5}, {3})));
}

TEST(FoldingBuilderTest, IllTypedCallIsATypeError) {
  FoldingBuilder builder(1 << 20);
  Var x = builder.Variable("x", TensorType(DType::kF32, {2}));
  Var y = builder.Variable("y", TensorType(DType::kI64, {2}));
  EXPECT_THROW(builder.Call("add", {x, y}), TypeError);
  EXPECT_THROW(TensorTypeOf(builder.Tuple({x, y})), Error);
}

}  // namespace
}  // namespace collage
