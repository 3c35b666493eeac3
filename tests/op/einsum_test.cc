// Tests of einsum (src/op/einsum.cc): products, traces, transposes, sums and ellipses with
// hand-computed values, and equation errors.
#include <gtest/gtest.h>

#include "op/op_test_util.h"

namespace collage {
namespace {

using op_test::EvaluateOpToTensor;
using op_test::F32;
using op_test::I64;
using op_test::InferTypeError;
using op_test::MessageHas;
using op_test::TensorIs;

Tensor Einsum(const std::string& equation, const std::vector<Tensor>& operands) {
  return EvaluateOpToTensor("einsum", operands, {{"equation", equation}});
}

TEST(EinsumTest, MatrixProductTransposeAndRowSums) {
  Tensor a = F32({1, 2, 3, 4}, {2, 2});
  Tensor b = F32({5, 6, 7, 8}, {2, 2});
  EXPECT_TRUE(TensorIs(Einsum("ij,jk->ik", {a, b}), DType::kF32, {2, 2}, {19, 22, 43, 50}));
  EXPECT_TRUE(TensorIs(Einsum("ij, jk", {a, b}), DType::kF32, {2, 2}, {19, 22, 43, 50}));
  EXPECT_TRUE(TensorIs(Einsum("ij->ji", {a}), DType::kF32, {2, 2}, {1, 3, 2, 4}));
  EXPECT_TRUE(TensorIs(Einsum("ij->i", {a}), DType::kF32, {2}, {3, 7}));
}

TEST(EinsumTest, TraceInnerProductAndIntegers) {
  EXPECT_TRUE(TensorIs(Einsum("ii", {F32({1, 2, 3, 4}, {2, 2})}), DType::kF32, {}, {5}));
  EXPECT_TRUE(TensorIs(Einsum("i,i", {I64({1, 2}, {2}), I64({3, 4}, {2})}), DType::kI64, {}, {11}));
}

TEST(EinsumTest, EllipsisCoversTheLeadingDimensions) {
  Tensor batch = F32({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  EXPECT_TRUE(TensorIs(Einsum("...ii->...i", {batch}), DType::kF32, {2, 2}, {1, 4, 5, 8}));
  EXPECT_TRUE(TensorIs(Einsum("bij,bjk->bik", {batch, batch}), DType::kF32, {2, 2, 2},
                       {7, 10, 15, 22, 67, 78, 91, 106}));
}

TEST(EinsumTest, EquationErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("einsum", {TensorType(DType::kF32, {2, 3}), TensorType(DType::kF32, {2, 3})},
                                        {{"equation", std::string("ij,jk->ik")}}),
                         {"einsum: ", "label 'j' has extent 3 and 2"}));
  EXPECT_TRUE(MessageHas(
      InferTypeError("einsum", {TensorType(DType::kF32, {2, 3})}, {{"equation", std::string("ijk->i")}}),
      {"einsum: ", "operands[0] has 2 dimensions but the equation gives it 3 labels"}));
}

}  // namespace
}  // namespace collage
