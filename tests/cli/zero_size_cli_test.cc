// Matrix products with an empty dimension on every backend of the build: no rows (M = 0)
// gives an empty result, an empty inner dimension (K = 0) gives zeros; no backend's library
// sees them (backend/zero_size_guard.h), so nothing dies inside one.
#include <gtest/gtest.h>

#include <string>

#include "backend/backend.h"
#include "cli/cli_fixture.h"
#include "io/npz.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

// A constant weight is what an ONNX MatMul with an initializer imports to; oneDNN died with
// SIGFPE reordering it.
constexpr const char* kEmptyInnerDimension = R"(def @main(%a: Tensor[(2, 0), f32], %b: Tensor[(3, 0), f32],
                                                          %c: Tensor[(0, 3), f32]) {
  %0 = nn.dense(%a, constant([], Tensor[(3, 0), f32]))
  %1 = nn.dense(%a, %b)
  %2 = nn.relu(nn.matmul(%a, %c))
  (%0, %1, %2)
}
)";

constexpr const char* kNoRows = R"(def @main(%a: Tensor[(0, 4), f32], %b: Tensor[(3, 4), f32],
                                             %c: Tensor[(4, 3), f32]) {
  (nn.dense(%a, %b), nn.matmul(%a, %c), nn.dense(%a, constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0,
                                                               12.0], Tensor[(3, 4), f32])))
}
)";

TEST_F(CliTest, AnEmptyInnerDimensionGivesZerosOnEveryBackend) {
  const std::string model = WriteModel("k0.cir", kEmptyInnerDimension);
  for (const std::string& backend : BackendRegistry::Global().Names()) {
    SCOPED_TRACE(backend);
    const std::string outputs = directory_.PathOf(backend + ".npz");
    const CliResult run = Run({"run", model, "--backends", backend, "--check", "--outputs", outputs});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("max abs error: 0,"), std::string::npos) << run.out;
    const NamedTensors written = ReadNpz(outputs);
    ASSERT_EQ(written.size(), 3u);
    for (const auto& [name, tensor] : written) {
      ASSERT_EQ(tensor.NumElements(), 6) << name;
      for (int64_t i = 0; i < tensor.NumElements(); ++i) {
        EXPECT_EQ(tensor.GetAsDouble(i), 0.0) << name << "[" << i << "]";
      }
    }
  }
}

TEST_F(CliTest, NoRowsGiveAnEmptyResultOnEveryBackend) {
  const std::string model = WriteModel("m0.cir", kNoRows);
  for (const std::string& backend : BackendRegistry::Global().Names()) {
    SCOPED_TRACE(backend);
    const CliResult run = Run({"run", model, "--backends", backend, "--check"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("output0: Tensor[(0, 3), f32]"), std::string::npos) << run.out;
  }
}

TEST_F(CliTest, EmptyProductsArePartitionedAndBenched) {
  const std::string model = WriteModel("k0.cir", kEmptyInnerDimension);
  const CliResult partitioned = Run({"partition", model});
  EXPECT_EQ(partitioned.exit_code, 0) << partitioned.err;
  const CliResult bench =
      Run({"bench", model, "--repeat", "1", "--threads", "1", "--db", directory_.PathOf("costs.sqlite")});
  EXPECT_EQ(bench.exit_code, 0) << bench.err;
}

}  // namespace
}  // namespace collage
