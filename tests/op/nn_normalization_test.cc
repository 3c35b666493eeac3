#include <gtest/gtest.h>

#include <cmath>

#include "op/nn_test_util.h"

namespace collage {
namespace {

using nn_testing::EvaluateOp;
using nn_testing::ExpectTensorNear;
using nn_testing::F32;
using nn_testing::F32Type;
using nn_testing::InferTypeError;

TEST(NNBatchNormTest, NormalizesEachChannelWithItsStatistics) {
  // Channel 0: (x - 1) / 2 * 1 + 0; channel 1: (x - 3) / 0.5 * 2 + 1.
  Tensor data = F32({1, 2, 3, 4}, {1, 2, 1, 2});
  std::vector<Tensor> args = {data, F32({1, 2}, {2}), F32({0, 1}, {2}), F32({1, 3}, {2}), F32({4, 0.25f}, {2})};
  ExpectTensorNear(EvaluateOp("nn.batch_norm", args, {{"epsilon", 0.0}}), {1, 2, 1, 2}, {0, 0.5, 1, 5});
  // The default epsilon 1e-5 is added to the variance.
  ExpectTensorNear(EvaluateOp("nn.batch_norm", args), {1, 2, 1, 2},
                   {0, 0.5 * 2 / std::sqrt(4.00001), 1, 1 + 2 * 1 / std::sqrt(0.25001)}, 1e-6);
}

TEST(NNBatchNormTest, LastAxis) {
  Tensor data = F32({1, 2, 3, 4}, {2, 2});
  std::vector<Tensor> args = {data, F32({1, 1}, {2}), F32({0, 0}, {2}), F32({0, 10}, {2}), F32({1, 4}, {2})};
  ExpectTensorNear(EvaluateOp("nn.batch_norm", args, {{"axis", int64_t{-1}}, {"epsilon", 0.0}}), {2, 2},
                   {1, -4, 3, -3});
}

TEST(NNBatchNormTest, ParameterShapeErrorNamesTheArgument) {
  std::vector<Type> types = {F32Type({1, 2, 3, 3}), F32Type({2}), F32Type({2}), F32Type({3}), F32Type({2})};
  EXPECT_EQ(InferTypeError("nn.batch_norm", types),
            "nn.batch_norm: moving_mean must have shape (2) to match data dimension 1, got (3)");
  types[3] = F32Type({2});
  EXPECT_EQ(InferTypeError("nn.batch_norm", types, {{"axis", int64_t{3}}}),
            "nn.batch_norm: gamma must have shape (3) to match data dimension 3, got (2)");
}

TEST(NNLayerNormTest, HandComputedRow) {
  // Mean 2.5, variance 1.25: normalized [-3, -1, 1, 3] / (2 sqrt(1.25)).
  const double unit = 1.0 / (2.0 * std::sqrt(1.25));
  Tensor out = EvaluateOp("nn.layer_norm", {F32({1, 2, 3, 4}, {1, 4}), F32({1, 1, 2, 2}, {4}), F32({0, 0, 0, 1}, {4})},
                          {{"epsilon", 0.0}});
  ExpectTensorNear(out, {1, 4}, {-3 * unit, -unit, 2 * unit, 2 * 3 * unit + 1});
}

TEST(NNLayerNormTest, NormalizesOnlyTheGivenAxis) {
  // Over axis 1 of [[1, 2], [3, 6]]: columns (1, 3) and (2, 6) each become (-1, 1).
  Tensor out = EvaluateOp("nn.layer_norm", {F32({1, 2, 3, 6}, {1, 2, 2}), F32({1, 1}, {2}), F32({0, 0}, {2})},
                          {{"axis", int64_t{1}}, {"epsilon", 0.0}});
  ExpectTensorNear(out, {1, 2, 2}, {-1, -1, 1, 1});
}

TEST(NNLayerNormTest, ShapeErrorNamesTheDimension) {
  EXPECT_EQ(InferTypeError("nn.layer_norm", {F32Type({2, 5}), F32Type({5}), F32Type({4})}),
            "nn.layer_norm: beta must have shape (5) to match data dimension 1, got (4)");
  EXPECT_EQ(InferTypeError("nn.layer_norm", {TensorType(DType::kI32, {2, 5}), F32Type({5}), F32Type({5})}),
            "nn.layer_norm: data must be floating point, got i32");
}

TEST(NNLrnTest, HandComputedAcrossNeighbouringChannels) {
  // Channels 1, 2, 3; alpha 3, beta 1, bias 1. Size 3 sums squares over c - 1 .. c + 1:
  // 1 / (1 + 5), 2 / (1 + 14), 3 / (1 + 13). Size 2 over c .. c + 1, alpha / size = 1.5:
  // 1 / (1 + 1.5 * 5), 2 / (1 + 1.5 * 13), 3 / (1 + 1.5 * 9).
  const Tensor data = F32({1, 2, 3}, {1, 3, 1, 1});
  ExpectTensorNear(EvaluateOp("nn.lrn", {data}, {{"size", int64_t{3}}, {"alpha", 3.0}, {"beta", 1.0}}), {1, 3, 1, 1},
                   {1.0 / 6, 2.0 / 15, 3.0 / 14});
  ExpectTensorNear(EvaluateOp("nn.lrn", {data}, {{"size", int64_t{2}}, {"alpha", 3.0}, {"beta", 1.0}}), {1, 3, 1, 1},
                   {1.0 / 8.5, 2.0 / 20.5, 3.0 / 14.5});
  EXPECT_EQ(InferTypeError("nn.lrn", {F32Type({4})}, {{"size", int64_t{3}}}),
            "nn.lrn: data must have rank >= 2 ([N, C, ...]), got (4)");
}

TEST(NNSoftmaxTest, HandComputedRow) {
  const double sum = std::exp(-2.0) + std::exp(-1.0) + 1.0;
  ExpectTensorNear(EvaluateOp("nn.softmax", {F32({1, 2, 3}, {1, 3})}), {1, 3},
                   {std::exp(-2.0) / sum, std::exp(-1.0) / sum, 1.0 / sum});
  ExpectTensorNear(EvaluateOp("nn.log_softmax", {F32({1, 2, 3}, {1, 3})}), {1, 3},
                   {-2 - std::log(sum), -1 - std::log(sum), -std::log(sum)});
}

TEST(NNSoftmaxTest, LargeInputsDoNotOverflow) {
  const double sum = std::exp(-2.0) + std::exp(-1.0) + 1.0;
  ExpectTensorNear(EvaluateOp("nn.softmax", {F32({1000, 1001, 1002}, {3})}), {3},
                   {std::exp(-2.0) / sum, std::exp(-1.0) / sum, 1.0 / sum});
  ExpectTensorNear(EvaluateOp("nn.log_softmax", {F32({-1000, 0, 1000}, {3})}), {3}, {-2000, -1000, 0});
}

TEST(NNSoftmaxTest, RowsSumToOneAlongTheChosenAxis) {
  Tensor data = Tensor::Random(DType::kF32, {3, 4, 5}, 7, -5.0, 5.0);
  Tensor out = EvaluateOp("nn.softmax", {data}, {{"axis", int64_t{1}}});
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t k = 0; k < 5; ++k) {
      double sum = 0;
      for (int64_t j = 0; j < 4; ++j) sum += out.GetAsDouble((i * 4 + j) * 5 + k);
      EXPECT_NEAR(sum, 1.0, 1e-6);
    }
  }
  // log_softmax is the logarithm of softmax.
  Tensor logs = EvaluateOp("nn.log_softmax", {data}, {{"axis", int64_t{1}}});
  Tensor exp_logs = Tensor::Zeros(DType::kF32, out.shape());
  for (int64_t i = 0; i < out.NumElements(); ++i) exp_logs.SetFromDouble(i, std::exp(logs.GetAsDouble(i)));
  nn_testing::ExpectTensorsNear(exp_logs, out, 1e-6);
}

TEST(NNSoftmaxTest, RejectsBadAxisAndIntegerData) {
  EXPECT_EQ(InferTypeError("nn.softmax", {F32Type({2, 3})}, {{"axis", int64_t{2}}}),
            "nn.softmax: attribute axis: axis 2 is out of range for rank 2");
  EXPECT_EQ(InferTypeError("nn.log_softmax", {TensorType(DType::kI64, {3})}),
            "nn.log_softmax: data must be floating point, got i64");
}

TEST(NNNormalizationTest, PatternKinds) {
  EXPECT_EQ(OpRegistry::Global().Get("nn.batch_norm").pattern_kind, OpPatternKind::kBroadcast);
  for (const char* name : {"nn.layer_norm", "nn.softmax", "nn.log_softmax"}) {
    EXPECT_EQ(OpRegistry::Global().Get(name).pattern_kind, OpPatternKind::kOutEWiseFusable) << name;
  }
}

}  // namespace
}  // namespace collage
