// Tests of the indexing ops (src/op/indexing.cc): hand-computed gathers, scatters and one-hot
// encodings, negative and out-of-range indices, and type-relation errors.
#include <gtest/gtest.h>

#include "op/op_test_util.h"

namespace collage {
namespace {

using op_test::EvaluateOp;
using op_test::EvaluateOpToTensor;
using op_test::F32;
using op_test::I64;
using op_test::InferTypeError;
using op_test::MessageHas;
using op_test::TensorIs;

TEST(IndexingTest, GatherElementsAlongEitherAxis) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("gather_elements", {F32({1, 2, 3, 4}, {2, 2}), I64({0, 0, 1, 0}, {2, 2})},
                                          {{"axis", int64_t{1}}}),
                       DType::kF32, {2, 2}, {1, 1, 4, 3}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("gather_elements",
                                          {F32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}), I64({1, 2, 0, 2, 0, 0}, {2, 3})},
                                          {{"axis", int64_t{0}}}),
                       DType::kF32, {2, 3}, {4, 8, 3, 7, 2, 3}));
}

TEST(IndexingTest, GatherElementsCountsNegativeIndicesFromTheEndAndRejectsOutOfRange) {
  EXPECT_TRUE(TensorIs(
      EvaluateOpToTensor("gather_elements", {F32({1, 2, 3, 4}, {2, 2}), I64({-1, 0}, {1, 2})}, {{"axis", int64_t{1}}}),
      DType::kF32, {1, 2}, {2, 1}));
  try {
    EvaluateOp("gather_elements", {F32({1, 2, 3, 4}, {2, 2}), I64({2, 0}, {1, 2})}, {{"axis", int64_t{1}}});
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_TRUE(MessageHas(error.what(), {"gather_elements: index 2 is out of range for axis 1 of extent 2"}));
  }
  EXPECT_TRUE(MessageHas(InferTypeError("gather_elements", {TensorType(DType::kF32, {2, 2}), TensorType(DType::kI64, {4})}),
                         {"gather_elements: ", "indices must have rank 2"}));
}

TEST(IndexingTest, ScatterElementsWritesAndReduces) {
  Tensor data = F32({0, 0, 0, 0, 0, 0, 0, 0, 0}, {3, 3});
  Tensor updates = F32({1, 1.1f, 1.2f, 2, 2.1f, 2.2f}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("scatter_elements", {data, I64({1, 0, 2, 0, 2, 1}, {2, 3}), updates}),
                       DType::kF32, {3, 3}, {2, 1.1, 0, 1, 0, 2.2, 0, 2.1, 1.2}, 1e-6));
  const Attrs add = {{"axis", int64_t{1}}, {"reduction", std::string("add")}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("scatter_elements",
                                          {F32({1, 2, 3, 4, 5}, {1, 5}), I64({1, 1}, {1, 2}), F32({1.1f, 2.1f}, {1, 2})},
                                          add),
                       DType::kF32, {1, 5}, {1, 5.2, 3, 4, 5}, 1e-6));
  const Attrs max = {{"axis", int64_t{1}}, {"reduction", std::string("max")}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("scatter_elements",
                                          {F32({1, 2, 3}, {1, 3}), I64({0, 2}, {1, 2}), F32({0.5f, 7}, {1, 2})}, max),
                       DType::kF32, {1, 3}, {1, 2, 7}));
  EXPECT_TRUE(MessageHas(InferTypeError("scatter_elements", {TensorType(DType::kF32, {3}), TensorType(DType::kI64, {2}),
                                                             TensorType(DType::kF32, {3})}),
                         {"scatter_elements: ", "updates (3) must have the shape of indices (2)"}));
}

TEST(IndexingTest, GatherNDWithElementsSlicesAndBatchDimensions) {
  Tensor square = F32({0, 1, 2, 3}, {2, 2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("gather_nd", {square, I64({0, 0, 1, 1}, {2, 2})}), DType::kF32, {2}, {0, 3}));
  EXPECT_TRUE(
      TensorIs(EvaluateOpToTensor("gather_nd", {square, I64({1, 0}, {2, 1})}), DType::kF32, {2, 2}, {2, 3, 0, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("gather_nd", {F32({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2}), I64({1, 0}, {2, 1})},
                                          {{"batch_dims", int64_t{1}}}),
                       DType::kF32, {2, 2}, {2, 3, 4, 5}));
  EXPECT_TRUE(MessageHas(InferTypeError("gather_nd", {TensorType(DType::kF32, {2, 2}), TensorType(DType::kI64, {1, 3})}),
                         {"gather_nd: ", "last dimension of indices (1, 3) must lie in [1, 2]"}));
}

TEST(IndexingTest, ScatterNDWritesElementsAndReduces) {
  Tensor data = F32({1, 2, 3, 4, 5, 6, 7, 8}, {8});
  Tensor indices = I64({4, 3, 1, 7}, {4, 1});
  Tensor updates = F32({9, 10, 11, 12}, {4});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("scatter_nd", {data, indices, updates}), DType::kF32, {8},
                       {1, 11, 3, 10, 9, 6, 7, 12}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("scatter_nd", {data, I64({0, 0}, {2, 1}), F32({5, 6}, {2})},
                                          {{"reduction", std::string("mul")}}),
                       DType::kF32, {8}, {30, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(IndexingTest, OneHotOnEitherAxisWithNegativeAndOutOfRangeIndices) {
  Tensor indices = I64({0, 2, -1, 3}, {4});
  Tensor values = F32({0, 5}, {2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("one_hot", {indices, values}, {{"depth", int64_t{3}}}), DType::kF32, {4, 3},
                       {5, 0, 0, 0, 0, 5, 0, 0, 5, 0, 0, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("one_hot", {indices, values}, {{"depth", int64_t{3}}, {"axis", int64_t{0}}}),
                       DType::kF32, {3, 4}, {5, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 0}));
  EXPECT_TRUE(MessageHas(InferTypeError("one_hot", {TensorType(DType::kI64, {4}), TensorType(DType::kF32, {3})},
                                        {{"depth", int64_t{3}}}),
                         {"one_hot: ", "values must have shape [2]"}));
}

}  // namespace
}  // namespace collage
