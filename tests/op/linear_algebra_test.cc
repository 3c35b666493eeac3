// Tests of linalg.det (src/op/linear_algebra.cc): hand-computed determinants, pivoting,
// singular and batched matrices, and the relation's errors.
#include <gtest/gtest.h>

#include <cmath>

#include "op/op_test_util.h"

namespace collage {
namespace {

using op_test::EvaluateOpToTensor;
using op_test::F32;
using op_test::InferTypeError;
using op_test::MessageHas;
using op_test::TensorIs;

TEST(LinearAlgebraTest, DeterminantsOfBatchedMatrices) {
  // [[1, 2], [3, 4]] gives -2; [[0, 1], [1, 0]] needs a row swap and gives -1; a singular
  // matrix gives 0.
  Tensor out = EvaluateOpToTensor("linalg.det", {F32({1, 2, 3, 4, 0, 1, 1, 0, 1, 2, 2, 4}, {3, 2, 2})});
  EXPECT_TRUE(TensorIs(out, DType::kF32, {3}, {-2, -1, 0}));
  Tensor three = EvaluateOpToTensor("linalg.det", {F32({2, 0, 1, 1, 3, 1, 4, 0, 7}, {3, 3})});
  // 2 * (21 - 0) - 0 * (7 - 4) + 1 * (0 - 12) = 30
  EXPECT_TRUE(TensorIs(three, DType::kF32, {}, {30}));
}

TEST(LinearAlgebraTest, DeterminantInDoublePrecision) {
  // [[1 + e, 1], [1, 1]] has determinant e = 2^-40, which float32 arithmetic would lose.
  const double e = std::ldexp(1.0, -40);
  Tensor out = EvaluateOpToTensor("linalg.det", {Tensor::FromVector<double>({1 + e, 1, 1, 1}, {2, 2})});
  ASSERT_EQ(out.dtype(), DType::kF64);
  EXPECT_NEAR(out.data<double>()[0], e, e * 1e-6);
}

TEST(LinearAlgebraTest, DeterminantNeedsSquareFloatMatrices) {
  EXPECT_TRUE(MessageHas(InferTypeError("linalg.det", {TensorType(DType::kF32, {2, 3})}),
                         {"square matrices", "(2, 3)"}));
  EXPECT_TRUE(MessageHas(InferTypeError("linalg.det", {TensorType(DType::kF32, {3})}), {"square matrices"}));
  EXPECT_TRUE(MessageHas(InferTypeError("linalg.det", {TensorType(DType::kI32, {2, 2})}),
                         {"data must be floating point, got i32"}));
}

}  // namespace
}  // namespace collage
