#include "interpreter/calibration.h"

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "ir/visitor.h"

namespace collage {
namespace {

const char* kModel = R"(def @main(%x: Tensor[(2, 3), f32]) {
  %r = nn.relu(%x)
  multiply(%r, constant([2.0], Tensor[(), f32]))
}
)";

Tensor Input(std::vector<float> values) { return Tensor::FromVector<float>(values, {2, 3}); }

TEST(CalibrationTest, RangesCoverEveryInputSetPerNode) {
  const Function function = testing::ParseMainFunction(kModel);
  const RangesByNode ranges = CalibrateRanges(
      function, {{Value(Input({-1, 0.5f, 2, 0, 0, 0}))}, {Value(Input({0.25f, -3, 1, 4, 0, 0}))}});
  const ExprNode* relu = As<CallNode>(function->body)->args[0].get();
  EXPECT_EQ(ranges.at(function->params[0].get()), (ActivationRange{-3, 4}));
  EXPECT_EQ(ranges.at(relu), (ActivationRange{0, 4}));
  EXPECT_EQ(ranges.at(function->body.get()), (ActivationRange{0, 8}));
}

TEST(CalibrationTest, PercentilesClipOutliersPerInputSet) {
  const Function function = testing::ParseMainFunction(R"(def @main(%x: Tensor[(1, 101), f32]) {
  nn.relu(%x)
}
)");
  std::vector<float> values;
  for (int i = 0; i < 100; ++i) values.push_back(static_cast<float>(i) / 100);
  values.push_back(1000);
  const std::vector<std::vector<Value>> inputs = {{Value(Tensor::FromVector<float>(values, {1, 101}))}};
  EXPECT_EQ(CalibrateRanges(function, inputs).at(function->body.get()).max, 1000);
  EXPECT_LT(CalibrateRanges(function, inputs, 99).at(function->body.get()).max, 11);
}

TEST(CalibrationTest, RandomInputsAreSeededAndDistinct) {
  const Function function = testing::ParseMainFunction(kModel);
  const auto first = RandomCalibrationInputs(function, 3);
  const auto again = RandomCalibrationInputs(function, 3);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[1][0].tensor().GetAsDouble(0), again[1][0].tensor().GetAsDouble(0));
  EXPECT_NE(first[0][0].tensor().GetAsDouble(0), first[1][0].tensor().GetAsDouble(0));
}

}  // namespace
}  // namespace collage
