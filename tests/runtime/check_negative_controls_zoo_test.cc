// Negative controls of the zoo harness: a zoo model placed on a deliberately wrong backend
// (testing/wrong_backends.h) and run by the executor must fail the comparison with torch's
// outputs (OutputsMatch at the zoo tests' tolerance) that the same placement on the reference
// backend passes (executor_zoo_test.cc). Swapped outputs need two outputs of one type, which no
// zoo model has.
#include <gtest/gtest.h>

#include "backend/reference/reference_backend.h"
#include "frontend/onnx/onnx_test_support.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"
#include "testing/wrong_backends.h"

namespace collage {
namespace {

using testing::Mistake;

class CheckNegativeControlZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckNegativeControlZooTest, TorchComparisonCatchesEveryWrongBackend) {
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(GetParam(), &why);
  if (!zoo) GTEST_SKIP() << why;
  for (Mistake mistake : {Mistake::kSmallNumericError, Mistake::kWrongBroadcast, Mistake::kOffByOneWindow}) {
    BackendRegistry registry;
    registry.Register(std::make_shared<ReferenceBackend>());
    const auto wrong = std::make_shared<testing::WrongBackend>(mistake);
    registry.Register(wrong);
    SCOPED_TRACE(wrong->name());
    Executor executor(PlaceGreedy(zoo->model.module, {wrong->name()}, registry), registry, {});
    const Value result = executor.Run(zoo->arguments);
    EXPECT_FALSE(testing::OutputsMatch(zoo->model, result, zoo->torch_outputs, 1e-3));
  }
}

INSTANTIATE_TEST_SUITE_P(ZooSmall, CheckNegativeControlZooTest, ::testing::Values("mobilenet_v2"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace collage
