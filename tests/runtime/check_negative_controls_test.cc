// Negative controls of the result checks: each deliberately wrong backend
// (testing/wrong_backends.h) must fail the comparison with the reference interpreter, as a
// backend test checks it (MatchesReference) and as a whole placement run by the executor is
// checked, while the reference backend on the same function passes.
#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "backend/reference/reference_backend.h"
#include "interpreter/interpreter.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"
#include "testing/wrong_backends.h"

namespace collage {
namespace {

using testing::Mistake;
using testing::WrongBackend;

// A broadcast operand, two outputs of one type and a padded convolution and pool, so every
// mistake has something to act on.
constexpr const char* kEveryMistakeModel = R"(def @main(%x: Tensor[(1, 2, 6, 6), f32], %w: Tensor[(2, 2, 3, 3), f32],
          %b: Tensor[(2, 1, 1), f32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1])
  %1 = add(%0, %b)
  %2 = nn.max_pool2d(%1, pool_size=[3, 3], padding=[1, 1, 1, 1])
  %3 = multiply(%2, %2)
  (%2, %3)
}
)";

class CheckNegativeControlTest : public ::testing::TestWithParam<Mistake> {};

TEST_P(CheckNegativeControlTest, ReferenceComparisonCatchesTheMistake) {
  const Function function = testing::ParseMainFunction(kEveryMistakeModel);
  const WrongBackend wrong(GetParam());
  for (uint64_t seed = 0; seed < 3; ++seed) {
    EXPECT_TRUE(testing::MatchesReference(ReferenceBackend(), function, seed)) << seed;
    const ::testing::AssertionResult result = testing::MatchesReference(wrong, function, seed);
    EXPECT_FALSE(result) << wrong.name() << " passed, seed " << seed;
    EXPECT_NE(std::string(result.message()).find("elements differ from the reference"), std::string::npos)
        << result.message();
  }
}

TEST_P(CheckNegativeControlTest, PlacementCheckCatchesTheMistake) {
  const Function function = testing::ParseMainFunction(kEveryMistakeModel);
  BackendRegistry registry;
  registry.Register(std::make_shared<ReferenceBackend>());
  const auto wrong = std::make_shared<WrongBackend>(GetParam());
  registry.Register(wrong);
  Executor executor(PlaceGreedy(Module(function), {wrong->name()}, registry), registry, {});
  const std::vector<Value> args = RandomArguments(function, 1);
  const Comparison comparison = CompareValues(executor.Run(args), Evaluate(function, args));
  EXPECT_FALSE(comparison.ok()) << wrong->name();
  EXPECT_GT(comparison.max_scaled_error, DefaultTolerance(DType::kF32).relative) << wrong->name();
}

TEST_P(CheckNegativeControlTest, MistakeNeedsSomethingToActOn) {
  // Without a broadcast, a second output or a padded window, a wrong backend refuses the
  // function rather than silently computing it right.
  const Function plain = testing::ParseMainFunction(R"(def @main(%x: Tensor[(2, 3), f32]) {
  nn.relu(%x)
}
)");
  const WrongBackend wrong(GetParam());
  if (GetParam() == Mistake::kSmallNumericError) {
    EXPECT_FALSE(testing::MatchesReference(wrong, plain));
  } else {
    EXPECT_THROW(wrong.Compile(plain, {}), Error) << wrong.name();
  }
}

INSTANTIATE_TEST_SUITE_P(EveryMistake, CheckNegativeControlTest, ::testing::ValuesIn(testing::AllMistakes()),
                         [](const ::testing::TestParamInfo<Mistake>& info) {
                           std::string name = WrongBackend(info.param).name();
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace collage
