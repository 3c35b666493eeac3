// Tests of the reduction ops (src/op/reduction.cc): hand-computed sums, means, extrema,
// products and arg-extrema over odd shapes, axis handling and type-relation errors.
#include <gtest/gtest.h>

#include <limits>

#include "op/op_test_util.h"

namespace collage {
namespace {

using op_test::EvaluateOpToTensor;
using op_test::F32;
using op_test::I32;
using op_test::I64;
using op_test::InferOpType;
using op_test::InferTypeError;
using op_test::MessageHas;
using op_test::TensorIs;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 1 2 3 4 5 / 6 7 8 9 10 / -1 -2 -3 -4 -5
Tensor Matrix3x5() { return F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, -2, -3, -4, -5}, {3, 5}); }

Attrs Axes(std::vector<int64_t> axes, int64_t keepdims = 0) {
  return {{"axis", std::move(axes)}, {"keepdims", keepdims}};
}

TEST(ReductionTest, PatternKinds) {
  for (const char* name : {"sum", "mean", "max", "min", "prod", "argmax", "argmin"}) {
    EXPECT_EQ(OpRegistry::Global().Get(name).pattern_kind, OpPatternKind::kCommReduce) << name;
  }
}

TEST(ReductionTest, SumOfAllAxesByDefault) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {Matrix3x5()}), DType::kF32, {}, {40}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {Matrix3x5()}, {{"keepdims", int64_t{1}}}), DType::kF32, {1, 1}, {40}));
}

TEST(ReductionTest, SumAlongOneAxisWithAndWithoutKeepdims) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {Matrix3x5()}, Axes({1})), DType::kF32, {3}, {15, 40, -15}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {Matrix3x5()}, Axes({1}, 1)), DType::kF32, {3, 1}, {15, 40, -15}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {Matrix3x5()}, Axes({-2})), DType::kF32, {5}, {6, 7, 8, 9, 10}));
}

TEST(ReductionTest, SumOverTwoOuterAxesOfARank3Tensor) {
  // Element (a, b, c) is 6a + 2b + c; summing over a and c leaves 14 + 8b.
  Tensor data = I32({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {2, 3, 2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {data}, Axes({0, 2})), DType::kI32, {3}, {14, 22, 30}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {data}, Axes({2, 0}, 1)), DType::kI32, {1, 3, 1}, {14, 22, 30}));
}

TEST(ReductionTest, IntegerSumIsExact) {
  const int64_t two_to_the_62 = int64_t{1} << 62;
  Tensor sum = EvaluateOpToTensor("sum", {I64({two_to_the_62, 1, 2}, {3})});
  ASSERT_EQ(sum.dtype(), DType::kI64);
  EXPECT_EQ(sum.data<int64_t>()[0], two_to_the_62 + 3);
}

TEST(ReductionTest, MeanAlongAxisAndOverall) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("mean", {Matrix3x5()}, Axes({1})), DType::kF32, {3}, {3, 8, -3}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("mean", {Matrix3x5()}), DType::kF32, {}, {40.0 / 15.0}));
}

TEST(ReductionTest, MaxAndMin) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("max", {Matrix3x5()}, Axes({1})), DType::kF32, {3}, {5, 10, -1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("min", {Matrix3x5()}, Axes({0})), DType::kF32, {5}, {-1, -2, -3, -4, -5}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("max", {Matrix3x5()}), DType::kF32, {}, {10}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("min", {I32({4, -9, 2}, {3, 1})}, Axes({0}, 1)), DType::kI32, {1, 1}, {-9}));
}

TEST(ReductionTest, MaxAndMinPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor data = F32({1, nan, 3, 4}, {2, 2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("max", {data}, Axes({1})), DType::kF32, {2}, {kNaN, 4}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("min", {data}), DType::kF32, {}, {kNaN}));
}

TEST(ReductionTest, ProdOfIntegers) {
  Tensor data = I64({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("prod", {data}, Axes({1})), DType::kI64, {2}, {6, 120}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("prod", {data}), DType::kI64, {}, {720}));
}

TEST(ReductionTest, EmptyAxesReduceToIdentities) {
  Tensor empty = Tensor::Zeros(DType::kF32, {2, 0});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {empty}, Axes({1})), DType::kF32, {2}, {0, 0}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("prod", {empty}, Axes({1})), DType::kF32, {2}, {1, 1}));
  EXPECT_TRUE(MessageHas(InferTypeError("max", {TensorType(DType::kF32, {2, 0})}, Axes({1})),
                         {"max: ", "cannot reduce dimension 1", "empty"}));
}

TEST(ReductionTest, ScalarReducesToItself) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("sum", {F32({2.5}, {})}), DType::kF32, {}, {2.5}));
}

TEST(ReductionTest, AxisErrors) {
  const Type matrix = TensorType(DType::kF32, {3, 5});
  EXPECT_TRUE(MessageHas(InferTypeError("sum", {matrix}, Axes({1, -1})),
                         {"sum: ", "attribute axis names dimension 1 twice"}));
  EXPECT_TRUE(MessageHas(InferTypeError("max", {matrix}, Axes({2})),
                         {"max: ", "attribute axis", "axis 2 is out of range for rank 2"}));
  EXPECT_TRUE(MessageHas(InferTypeError("sum", {matrix}, Axes({0}, 2)), {"sum: ", "keepdims must be 0 or 1, got 2"}));
}

TEST(ReductionTest, DTypeErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("mean", {TensorType(DType::kI32, {3})}),
                         {"mean: ", "data must be floating point, got i32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("sum", {TensorType(DType::kBool, {3})}),
                         {"sum: ", "data must be floating point or integer, got bool"}));
}

// Rows: 1 5 5 2 0 / 3 3 3 3 3 / -1 7 -9 7 -9
Tensor TiesMatrix() { return F32({1, 5, 5, 2, 0, 3, 3, 3, 3, 3, -1, 7, -9, 7, -9}, {3, 5}); }

TEST(ReductionTest, ArgmaxAndArgminAlongRowsTakeTheFirstOccurrence) {
  const Attrs along_rows = {{"axis", int64_t{1}}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmax", {TiesMatrix()}, along_rows), DType::kI64, {3}, {1, 0, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmin", {TiesMatrix()}, along_rows), DType::kI64, {3}, {4, 0, 2}));
}

TEST(ReductionTest, ArgmaxAndArgminDefaultToAxisZero) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmax", {TiesMatrix()}), DType::kI64, {5}, {1, 2, 0, 2, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmin", {TiesMatrix()}), DType::kI64, {5}, {2, 1, 2, 0, 2}));
}

TEST(ReductionTest, ArgmaxWithNegativeAxisAndKeepdims) {
  const Attrs attrs = {{"axis", int64_t{-1}}, {"keepdims", int64_t{1}}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmax", {TiesMatrix()}, attrs), DType::kI64, {3, 1}, {1, 0, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmax", {I32({4, 9, 9, -2}, {2, 2, 1})}, {{"axis", int64_t{1}}}),
                       DType::kI64, {2, 1}, {1, 0}));
}

TEST(ReductionTest, ArgExtremaPickTheFirstNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor data = F32({1, nan, 3, nan}, {4});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmax", {data}), DType::kI64, {}, {1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("argmin", {data}), DType::kI64, {}, {1}));
}

TEST(ReductionTest, ArgmaxRelationErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("argmax", {TensorType(DType::kF32, {3, 5})}, {{"axis", int64_t{2}}}),
                         {"argmax: ", "axis 2 is out of range for rank 2"}));
  EXPECT_TRUE(MessageHas(InferTypeError("argmin", {TensorType(DType::kF32, {3, 0})}, {{"axis", int64_t{1}}}),
                         {"argmin: ", "axis 1 of data (3, 0) is empty"}));
  EXPECT_TRUE(TypeEqual(InferOpType("argmin", {TensorType(DType::kF32, {3, 0})}), TensorType(DType::kI64, {0})));
}

}  // namespace
}  // namespace collage
