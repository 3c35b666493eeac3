#include <gtest/gtest.h>

#include "op/nn_test_util.h"

namespace collage {
namespace {

using nn_testing::EvaluateOp;
using nn_testing::ExpectTensorNear;
using nn_testing::F32;
using nn_testing::F32Type;
using nn_testing::InferCallType;
using nn_testing::InferTypeError;

TEST(NNDenseTest, MultipliesByTransposedWeight) {
  // [[1,2,3],[4,5,6]] x [[1,0,-1],[2,1,0]]^T.
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor weight = F32({1, 0, -1, 2, 1, 0}, {2, 3});
  ExpectTensorNear(EvaluateOp("nn.dense", {data, weight}), {2, 2}, {-2, 4, -2, 13});
}

TEST(NNDenseTest, KeepsLeadingDimensions) {
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {2, 1, 3});
  Tensor weight = F32({1, 0, -1, 2, 1, 0}, {2, 3});
  ExpectTensorNear(EvaluateOp("nn.dense", {data, weight}), {2, 1, 2}, {-2, 4, -2, 13});
  ExpectTensorNear(EvaluateOp("nn.dense", {F32({1, 2, 3}, {3}), weight}), {2}, {-2, 4});
}

TEST(NNDenseTest, ShapeErrorNamesTheDimension) {
  EXPECT_EQ(InferTypeError("nn.dense", {F32Type({2, 3}), F32Type({4, 5})}),
            "nn.dense: weight dimension 1 (5) must equal the last data dimension 1 (3)");
  EXPECT_EQ(InferTypeError("nn.dense", {F32Type({2, 3}), F32Type({3})}),
            "nn.dense: weight must have rank 2, got shape (3)");
  EXPECT_EQ(InferTypeError("nn.dense", {F32Type({2, 3}), TensorType(DType::kF16, {4, 3})}),
            "nn.dense: data is f32 but weight is f16");
}

TEST(NNMatmulTest, MatrixTimesMatrix) {
  ExpectTensorNear(EvaluateOp("nn.matmul", {F32({1, 2, 3, 4}, {2, 2}), F32({5, 6, 7, 8}, {2, 2})}), {2, 2},
                   {19, 22, 43, 50});
}

TEST(NNMatmulTest, OneDimensionalPromotions) {
  // vector . vector is a scalar; a leading vector is a row, a trailing vector a column.
  ExpectTensorNear(EvaluateOp("nn.matmul", {F32({1, 2, 3}, {3}), F32({4, 5, 6}, {3})}), {}, {32});
  ExpectTensorNear(EvaluateOp("nn.matmul", {F32({1, 2}, {2}), F32({5, 6, 7, 8}, {2, 2})}), {2}, {19, 22});
  ExpectTensorNear(EvaluateOp("nn.matmul", {F32({1, 2, 3, 4}, {2, 2}), F32({5, 6}, {2})}), {2}, {17, 39});
  // A vector against a stack of matrices: one row per matrix.
  Tensor stack = F32({1, 0, 0, 1, 2, 0, 0, 3, 0, 1, 1, 0}, {3, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.matmul", {F32({5, 7}, {2}), stack}), {3, 2}, {5, 7, 10, 21, 7, 5});
  ExpectTensorNear(EvaluateOp("nn.matmul", {stack, F32({5, 7}, {2})}), {3, 2}, {5, 7, 10, 21, 7, 5});
}

TEST(NNMatmulTest, BatchDimensionsBroadcast) {
  // a: (2, 1, 2, 2) holding I and 2I; b: (3, 2, 2) holding B0, B1, B2. out[i, j] = (i + 1) * Bj.
  Tensor a = F32({1, 0, 0, 1, 2, 0, 0, 2}, {2, 1, 2, 2});
  std::vector<float> b_values = {1, 2, 3, 4, -1, 0, 5, 2, 0.5f, 0.25f, 8, -3};
  Tensor b = F32(b_values, {3, 2, 2});
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i) {
    for (float value : b_values) expected.push_back((i + 1) * value);
  }
  ExpectTensorNear(EvaluateOp("nn.matmul", {a, b}), {2, 3, 2, 2}, expected);
}

TEST(NNMatmulTest, InfersShapesOfMixedRanks) {
  EXPECT_TRUE(
      TypeEqual(InferCallType("nn.matmul", {F32Type({4, 1, 5, 3}), F32Type({6, 3, 2})}), F32Type({4, 6, 5, 2})));
  EXPECT_TRUE(TypeEqual(InferCallType("nn.matmul", {F32Type({7, 5, 3}), F32Type({3})}), F32Type({7, 5})));
}

TEST(NNMatmulTest, ShapeErrorsNameTheDimension) {
  EXPECT_EQ(InferTypeError("nn.matmul", {F32Type({2, 3}), F32Type({4, 5})}),
            "nn.matmul: contracted dimensions differ: a dimension 1 is 3 but b dimension 0 is 4");
  EXPECT_EQ(InferTypeError("nn.matmul", {F32Type({3}), F32Type({2})}),
            "nn.matmul: contracted dimensions differ: a dimension 0 is 3 but b dimension 0 is 2");
  std::string message = InferTypeError("nn.matmul", {F32Type({2, 2, 3}), F32Type({3, 3, 4})});
  EXPECT_EQ(message.rfind("nn.matmul: batch dimensions of a and b: cannot broadcast shapes (2) and (3)", 0), 0u)
      << message;
  EXPECT_EQ(InferTypeError("nn.matmul", {F32Type({}), F32Type({3})}),
            "nn.matmul: a must have rank at least 1, got a scalar");
}

TEST(NNBatchMatmulTest, PlainAndTransposed) {
  Tensor a = F32({1, 2, 3, 4, 1, 0, 0, 1}, {2, 2, 2});
  Tensor b = F32({5, 6, 7, 8, 1, 2, 3, 4}, {2, 2, 2});
  // Batch 0: [[1,2],[3,4]] x [[5,6],[7,8]]; batch 1: I x [[1,2],[3,4]].
  ExpectTensorNear(EvaluateOp("nn.batch_matmul", {a, b}), {2, 2, 2}, {19, 22, 43, 50, 1, 2, 3, 4});
  // Transposed: batch 0: [[1,2],[3,4]] x [[5,7],[6,8]]; batch 1: I x [[1,3],[2,4]].
  ExpectTensorNear(EvaluateOp("nn.batch_matmul", {a, b}, {{"transpose_b", int64_t{1}}}), {2, 2, 2},
                   {17, 23, 39, 53, 1, 3, 2, 4});
}

TEST(NNBatchMatmulTest, BroadcastsABatchOfOne) {
  Tensor a = F32({1, 2, 3, 4, 1, 0, 0, 1}, {2, 2, 2});
  Tensor b = F32({5, 6, 7, 8}, {1, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.batch_matmul", {a, b}), {2, 2, 2}, {19, 22, 43, 50, 5, 6, 7, 8});
  ExpectTensorNear(EvaluateOp("nn.batch_matmul", {b, a}), {2, 2, 2}, {23, 34, 31, 46, 5, 6, 7, 8});
}

TEST(NNBatchMatmulTest, ShapeErrorsNameTheDimension) {
  EXPECT_EQ(InferTypeError("nn.batch_matmul", {F32Type({2, 2, 3}), F32Type({3, 3, 2})}),
            "nn.batch_matmul: batch dimension 0 differs: a has 2 but b has 3 (one of them must be 1 to broadcast)");
  EXPECT_EQ(InferTypeError("nn.batch_matmul", {F32Type({2, 2, 3}), F32Type({2, 4, 2})}, {{"transpose_b", int64_t{1}}}),
            "nn.batch_matmul: contracted dimensions differ: a dimension 2 is 3 but b dimension 2 is 2");
  EXPECT_EQ(InferTypeError("nn.batch_matmul", {F32Type({2, 3}), F32Type({2, 3, 2})}),
            "nn.batch_matmul: a must have rank 3, got shape (2, 3)");
}

TEST(NNBiasAddTest, AddsAlongTheAxis) {
  Tensor data = F32({1, 2, 3, 4}, {1, 2, 2});
  ExpectTensorNear(EvaluateOp("nn.bias_add", {data, F32({10, 20}, {2})}), {1, 2, 2}, {11, 12, 23, 24});
  ExpectTensorNear(EvaluateOp("nn.bias_add", {data, F32({10, 20}, {2})}, {{"axis", int64_t{-1}}}), {1, 2, 2},
                   {11, 22, 13, 24});
}

TEST(NNBiasAddTest, ShapeErrorsNameTheDimension) {
  EXPECT_EQ(InferTypeError("nn.bias_add", {F32Type({1, 2, 4}), F32Type({3})}),
            "nn.bias_add: bias must have shape (2) to match data dimension 1, got (3)");
  EXPECT_EQ(InferTypeError("nn.bias_add", {F32Type({1, 2}), F32Type({2})}, {{"axis", int64_t{2}}}),
            "nn.bias_add: attribute axis: axis 2 is out of range for rank 2");
}

TEST(NNDenseTest, LinearOpsAreOutEWiseFusableAndBiasAddBroadcast) {
  for (const char* name : {"nn.dense", "nn.matmul", "nn.batch_matmul"}) {
    EXPECT_EQ(OpRegistry::Global().Get(name).pattern_kind, OpPatternKind::kOutEWiseFusable) << name;
  }
  EXPECT_EQ(OpRegistry::Global().Get("nn.bias_add").pattern_kind, OpPatternKind::kBroadcast);
}

}  // namespace
}  // namespace collage
