// Tests of the ordering ops (src/op/ordering.cc): topk with ties, cumsum in its four modes
// and trilu's triangles, with hand-computed values.
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

TEST(OrderingTest, TopKLargestAndSmallestKeepTheLowerIndexOnTies) {
  Tensor data = F32({3, 1, 3, 2, 0, 5, 4, 5}, {2, 4});
  std::vector<Tensor> largest = EvaluateOp("topk", {data}, {{"k", int64_t{2}}});
  ASSERT_EQ(largest.size(), 2u);
  EXPECT_TRUE(TensorIs(largest[0], DType::kF32, {2, 2}, {3, 3, 5, 5}));
  EXPECT_TRUE(TensorIs(largest[1], DType::kI64, {2, 2}, {0, 2, 1, 3}));
  std::vector<Tensor> smallest = EvaluateOp("topk", {data}, {{"k", int64_t{3}}, {"largest", int64_t{0}}});
  EXPECT_TRUE(TensorIs(smallest[0], DType::kF32, {2, 3}, {1, 2, 3, 0, 4, 5}));
  EXPECT_TRUE(TensorIs(smallest[1], DType::kI64, {2, 3}, {1, 3, 0, 0, 2, 1}));
  std::vector<Tensor> columns = EvaluateOp("topk", {data}, {{"k", int64_t{1}}, {"axis", int64_t{0}}});
  EXPECT_TRUE(TensorIs(columns[0], DType::kF32, {1, 4}, {3, 5, 4, 5}));
  EXPECT_TRUE(TensorIs(columns[1], DType::kI64, {1, 4}, {0, 1, 1, 1}));
  EXPECT_TRUE(MessageHas(InferTypeError("topk", {TensorType(DType::kF32, {2, 4})}, {{"k", int64_t{5}}}),
                         {"topk: ", "k = 5 exceeds dimension 1 of data (2, 4)"}));
}

TEST(OrderingTest, CumSumInclusiveExclusiveAndReversed) {
  Tensor data = I64({1, 2, 3, 4, 5}, {5});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cumsum", {data}), DType::kI64, {5}, {1, 3, 6, 10, 15}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cumsum", {data}, {{"exclusive", int64_t{1}}}), DType::kI64, {5},
                       {0, 1, 3, 6, 10}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cumsum", {data}, {{"reverse", int64_t{1}}}), DType::kI64, {5},
                       {15, 14, 12, 9, 5}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cumsum", {data}, {{"reverse", int64_t{1}}, {"exclusive", int64_t{1}}}),
                       DType::kI64, {5}, {14, 12, 9, 5, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("cumsum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{1}}}),
                       DType::kF32, {2, 3}, {1, 3, 6, 4, 9, 15}));
}

TEST(OrderingTest, TriluUpperAndLowerWithDiagonalOffsets) {
  Tensor data = F32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("trilu", {data}), DType::kF32, {3, 3}, {1, 2, 3, 0, 5, 6, 0, 0, 9}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("trilu", {data}, {{"upper", int64_t{1}}, {"k", int64_t{1}}}), DType::kF32,
                       {3, 3}, {0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("trilu", {data}, {{"upper", int64_t{0}}, {"k", int64_t{-1}}}), DType::kF32,
                       {3, 3}, {0, 0, 0, 4, 0, 0, 7, 8, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("trilu", {F32({1, 2, 3, 4, 5, 6}, {1, 2, 3})}, {{"upper", int64_t{0}}}),
                       DType::kF32, {1, 2, 3}, {1, 0, 0, 4, 5, 0}));
  EXPECT_TRUE(MessageHas(InferTypeError("trilu", {TensorType(DType::kF32, {3})}), {"trilu: ", "rank >= 2"}));
}

}  // namespace
}  // namespace collage
