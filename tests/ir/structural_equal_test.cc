#include "ir/structural_equal.h"

#include <gtest/gtest.h>

#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;

// relu(conv2d(x, w, strides)) built afresh each time, with the given knobs.
Function MakeConvRelu(const std::string& name, std::vector<int64_t> strides, Shape input_shape, float weight_value) {
  Var x = MakeVar(name, F32(std::move(input_shape)));
  Tensor weight = Tensor::Zeros(DType::kF32, {2, 3, 3, 3});
  weight.data<float>()[0] = weight_value;
  Expr conv = CallOp("nn.conv2d", {x, MakeConstant(weight)}, {{"strides", std::move(strides)}});
  return MakeFunction({x}, CallOp("nn.relu", {conv}));
}

TEST(StructuralEqualTest, IndependentlyBuiltGraphsAreEqualAndHashEqual) {
  Function a = MakeConvRelu("x", {1, 1}, {1, 3, 8, 8}, 1.0f);
  Function b = MakeConvRelu("input", {1, 1}, {1, 3, 8, 8}, 1.0f);  // names are ignored
  EXPECT_TRUE(StructuralEqual(a, b));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
}

TEST(StructuralEqualTest, ChangedAttributeBreaksEqualityAndHash) {
  Function a = MakeConvRelu("x", {1, 1}, {1, 3, 8, 8}, 1.0f);
  Function b = MakeConvRelu("x", {2, 2}, {1, 3, 8, 8}, 1.0f);
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_NE(StructuralHash(a), StructuralHash(b));
}

TEST(StructuralEqualTest, ChangedShapeBreaksEqualityAndHash) {
  Function a = MakeConvRelu("x", {1, 1}, {1, 3, 8, 8}, 1.0f);
  Function b = MakeConvRelu("x", {1, 1}, {1, 3, 9, 8}, 1.0f);
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_NE(StructuralHash(a), StructuralHash(b));
}

TEST(StructuralEqualTest, ConstantValuesCompareButDoNotHashByDefault) {
  Function a = MakeConvRelu("x", {1, 1}, {1, 3, 8, 8}, 1.0f);
  Function b = MakeConvRelu("x", {1, 1}, {1, 3, 8, 8}, 2.0f);
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_TRUE(StructuralEqual(a, b, {.compare_constant_values = false}));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
  EXPECT_NE(StructuralHash(a, {.hash_constant_values = true}), StructuralHash(b, {.hash_constant_values = true}));
}

TEST(StructuralEqualTest, DifferentOpsAreDifferent) {
  Var x = MakeVar("x", F32({4}));
  Function a = MakeFunction({x}, CallOp("nn.relu", {x}));
  Function b = MakeFunction({x}, CallOp("sigmoid", {x}));
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_NE(StructuralHash(a), StructuralHash(b));
}

TEST(StructuralEqualTest, SharingIsPartOfTheStructure) {
  // add(relu(x), relu(x)) with one shared relu vs two separate relus.
  Var x = MakeVar("x", F32({4}));
  Expr relu = CallOp("nn.relu", {x});
  Function shared = MakeFunction({x}, CallOp("add", {relu, relu}));
  Var y = MakeVar("x", F32({4}));
  Function separate = MakeFunction({y}, CallOp("add", {CallOp("nn.relu", {y}), CallOp("nn.relu", {y})}));
  EXPECT_FALSE(StructuralEqual(shared, separate));
}

TEST(StructuralEqualTest, ParameterOrderMatters) {
  Var x = MakeVar("x", F32({4}));
  Var y = MakeVar("y", F32({4}));
  Function a = MakeFunction({x, y}, CallOp("subtract", {x, y}));
  Function b = MakeFunction({x, y}, CallOp("subtract", {y, x}));
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_NE(StructuralHash(a), StructuralHash(b));
}

TEST(StructuralEqualTest, FunctionAttributesAndTupleIndicesCount) {
  Var p = MakeVar("p", F32({4}));
  Function inner_native = MakeFunction({p}, CallOp("nn.relu", {p}), {{attr::kCompiler, std::string("native")}});
  Function inner_other = MakeFunction({p}, CallOp("nn.relu", {p}), {{attr::kCompiler, std::string("other")}});
  Var x = MakeVar("x", F32({4}));
  auto outer = [&](const Function& inner, int index) {
    Expr tuple = MakeTuple({MakeCall(inner, {x}), x});
    return MakeFunction({x}, MakeTupleGetItem(tuple, index));
  };
  EXPECT_TRUE(StructuralEqual(outer(inner_native, 0), outer(inner_native, 0)));
  EXPECT_FALSE(StructuralEqual(outer(inner_native, 0), outer(inner_other, 0)));
  EXPECT_FALSE(StructuralEqual(outer(inner_native, 0), outer(inner_native, 1)));
}

TEST(StructuralEqualTest, ModulesCompareFunctionsByName) {
  Module a(testing::MakeChain(3));
  Module b(testing::MakeChain(3));
  EXPECT_TRUE(StructuralEqual(a, b));
  EXPECT_EQ(StructuralHash(a), StructuralHash(b));
  b.Add("helper", testing::MakeChain(1));
  EXPECT_FALSE(StructuralEqual(a, b));
  EXPECT_NE(StructuralHash(a), StructuralHash(b));
}

}  // namespace
}  // namespace collage
