#include <gtest/gtest.h>

#include "op/nn_test_util.h"

namespace collage {
namespace {

using nn_testing::EvaluateOp;
using nn_testing::ExpectTensorNear;
using nn_testing::F32;
using nn_testing::F32Type;
using nn_testing::InferTypeError;

using Ints = std::vector<int64_t>;

TEST(NNPadTest, ConstantUsesOnnxOrder) {
  // [x1_begin, x2_begin, x1_end, x2_end] = one row on top, one column on the right.
  Tensor out = EvaluateOp("nn.pad", {F32({1, 2, 3, 4}, {2, 2})}, {{"pad_width", Ints{1, 0, 0, 1}}, {"pad_value", 9.0}});
  ExpectTensorNear(out, {3, 3}, {9, 9, 9, 1, 2, 9, 3, 4, 9});
}

TEST(NNPadTest, ConstantDefaultsToZero) {
  ExpectTensorNear(EvaluateOp("nn.pad", {F32({5}, {1})}, {{"pad_width", Ints{2, 1}}}), {4}, {0, 0, 5, 0});
}

TEST(NNPadTest, ReflectMirrorsWithoutRepeatingTheBorder) {
  Tensor out = EvaluateOp("nn.pad", {F32({1, 2, 3}, {1, 3})}, {{"pad_width", Ints{0, 2, 0, 2}}, {"mode", "reflect"}});
  ExpectTensorNear(out, {1, 7}, {3, 2, 1, 2, 3, 2, 1});
}

TEST(NNPadTest, EdgeRepeatsTheBorder) {
  Tensor out = EvaluateOp("nn.pad", {F32({1, 2, 3, 4}, {2, 2})}, {{"pad_width", Ints{1, 0, 0, 2}}, {"mode", "edge"}});
  ExpectTensorNear(out, {3, 4}, {1, 2, 2, 2, 1, 2, 2, 2, 3, 4, 4, 4});
}

TEST(NNPadTest, NegativeWidthsCrop) {
  Tensor data = F32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  ExpectTensorNear(EvaluateOp("nn.pad", {data}, {{"pad_width", Ints{-1, 0, 0, -1}}}), {2, 2}, {4, 5, 7, 8});
  // Crop one element at the front, reflect two at the back: positions 1, 2, then 1, 0.
  ExpectTensorNear(EvaluateOp("nn.pad", {F32({1, 2, 3}, {3})}, {{"pad_width", Ints{-1, 2}}, {"mode", "reflect"}}), {4},
                   {2, 3, 2, 1});
  ExpectTensorNear(EvaluateOp("nn.pad", {F32({1, 2, 3}, {3})}, {{"pad_width", Ints{1, -2}}, {"mode", "edge"}}), {2},
                   {1, 1});
}

TEST(NNPadTest, ShapeErrorsNameTheDimension) {
  EXPECT_EQ(InferTypeError("nn.pad", {F32Type({2, 2})}, {{"pad_width", Ints{1, 1, 1}}}),
            "nn.pad: attribute pad_width must have 4 entries, got [1, 1, 1]");
  EXPECT_EQ(InferTypeError("nn.pad", {F32Type({2, 3})}, {{"pad_width", Ints{0, 3, 0, 0}}, {"mode", "reflect"}}),
            "nn.pad: dimension 1 (extent 3) can be reflect-padded by at most 2 on each side, got 3 and 0");
  EXPECT_EQ(InferTypeError("nn.pad", {F32Type({2, 3})}, {{"pad_width", Ints{-1, 0, -1, 0}}}),
            "nn.pad: dimension 0 (extent 2) padded by -1 and -1 would have extent 0, expected at least 1");
  EXPECT_EQ(InferTypeError("nn.pad", {F32Type({2})}, {{"pad_width", Ints{1, 1}}, {"mode", "wrap"}}),
            "nn.pad: attribute mode must be one of \"constant\", \"reflect\", \"edge\", got \"wrap\"");
}

TEST(NNPadTest, PadsIntegersExactly) {
  // An i64 beyond float32's 24-bit mantissa survives, and the pad value converts to the dtype.
  const int64_t large = (int64_t{1} << 40) + 1;
  Tensor out = EvaluateOp("nn.pad", {Tensor::FromVector<int64_t>({large, -3}, {2})},
                          {{"pad_width", Ints{1, 1}}, {"pad_value", 7.0}});
  ASSERT_EQ(out.dtype(), DType::kI64);
  EXPECT_EQ(std::vector<int64_t>(out.data<int64_t>(), out.data<int64_t>() + 4), (std::vector<int64_t>{7, large, -3, 7}));
  Tensor edge = EvaluateOp("nn.pad", {Tensor::FromVector<uint8_t>({200, 5}, {2})},
                           {{"pad_width", Ints{0, 2}}, {"mode", "edge"}});
  EXPECT_EQ(std::vector<uint8_t>(edge.data<uint8_t>(), edge.data<uint8_t>() + 4), (std::vector<uint8_t>{200, 5, 5, 5}));
}

TEST(NNPadTest, IsInjective) { EXPECT_EQ(OpRegistry::Global().Get("nn.pad").pattern_kind, OpPatternKind::kInjective); }

}  // namespace
}  // namespace collage
