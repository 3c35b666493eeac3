// The model zoo through greedy placement and the executor, outputs within 1e-3 x max |output|
// of torch's like the interpreter's (onnx_zoo_test.cc):
//   `--backends reference`: every op call lands in one compiled reference partition;
//   a test backend taking convolutions and matrix products first, the reference backend
//   (the fallback) the rest: many partitions, tuple results and real arena reuse;
//   every real backend alone (where it can, the universal fallback elsewhere) and the greedy
//   mix onednn, openblas, xnnpack, native; backends missing from the build are skipped;
//   a Collage placement on the real backends' specs that mixes boundary layouts (pseudo-random
//   costs per candidate and layout), so channels-last and channel-blocked partitions and
//   the conversions between them run.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>
#include <random>

#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "runtime/executor.h"
#include "pass/standard_passes.h"
#include "runtime/greedy_placement.h"
#include "testing/subset_backend.h"

namespace collage {
namespace {

class ExecutorZooTest : public ::testing::TestWithParam<std::string> {
 protected:
  void ExpectPlacementMatchesTorch(const std::vector<std::string>& backends, const BackendRegistry& registry) {
    const std::string& name = GetParam();
    std::string why;
    const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(name, &why);
    if (!zoo) GTEST_SKIP() << why;

    ExecutorOptions options;
    options.compile.threads = 2;
    Executor executor(PlaceGreedy(zoo->model.module, backends, registry), registry, options);
    const Value result = executor.Run(zoo->arguments);
    const MemoryPlan& memory = executor.memory_plan();
    std::cout << name << ": " << executor.num_steps() << " compiled calls, activations " << memory.arena_bytes
              << " bytes planned of " << memory.total_bytes << " (live bound " << memory.live_bytes_bound << ")"
              << std::endl;
    EXPECT_LE(memory.arena_bytes, memory.total_bytes);
    EXPECT_TRUE(testing::OutputsMatch(zoo->model, result, zoo->torch_outputs, 1e-3));
  }
};

TEST_P(ExecutorZooTest, GreedyReferencePlacementMatchesTorch) {
  ExpectPlacementMatchesTorch({"reference"}, BackendRegistry::Global());
}

TEST_P(ExecutorZooTest, MixedPlacementMatchesTorch) {
  BackendRegistry registry;
  registry.Register(BackendRegistry::Global().Get("reference"));
  registry.Register(std::make_shared<testing::SubsetBackend>(
      "products", std::set<std::string>{"nn.conv2d", "nn.conv2d_transpose", "nn.dense", "nn.matmul", "nn.batch_matmul"}));
  ExpectPlacementMatchesTorch({"products"}, registry);
}

TEST_P(ExecutorZooTest, RealBackendPlacementsMatchTorch) {
  const std::vector<std::vector<std::string>> menus = {
      {"native"}, {"onednn"}, {"openblas"}, {"xnnpack"}, {"onednn", "openblas", "xnnpack", "native"}};
  for (const std::vector<std::string>& menu : menus) {
    std::string label;
    bool built = true;
    for (const std::string& backend : menu) {
      label += (label.empty() ? "" : ",") + backend;
      built = built && BackendRegistry::Global().Find(backend) != nullptr;
    }
    if (!built) {
      std::cout << "skipping --backends " << label << ": not in this build" << std::endl;
      continue;
    }
    SCOPED_TRACE("--backends " + label);
    ExpectPlacementMatchesTorch(menu, BackendRegistry::Global());
  }
}

TEST_P(ExecutorZooTest, MixedLayoutPlacementMatchesTorch) {
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(GetParam(), &why);
  if (!zoo) GTEST_SKIP() << why;
  std::vector<PartitionSpec> specs;
  for (const char* name : {"xnnpack", "onednn", "native"}) {
    if (const BackendPtr backend = BackendRegistry::Global().Find(name)) specs.push_back(MakePartitionSpec(backend->Support()));
  }
  specs.push_back(MakeHostSpec());
  // Pseudo-random costs per (nodes, spec, layout), so the placement mixes backends and layouts.
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    if (candidate.spec_name() == MakeHostSpec().name) return Cost::Zero();
    std::mt19937_64 random(std::hash<std::string>{}(candidate.sub_graph().inside().ToString() + candidate.spec_name() +
                                                    PartitionLayoutsName(candidate.boundary_layouts())));
    return Cost::Seconds(std::uniform_real_distribution<double>(1.0, 2.0)(random) *
                         static_cast<double>(candidate.sub_graph().inside().Count()));
  });
  const Module simplified = StandardPipeline()(zoo->model.module);
  const PartitionResult placed = Partition(simplified.main(), specs, estimator);
  std::map<PartitionLayouts, size_t> partitions_in;
  for (const CandidatePartition& chosen : placed.chosen) ++partitions_in[chosen.boundary_layouts()];
  ExecutorOptions options;
  options.compile.threads = 2;
  Executor executor(Module(placed.function), BackendRegistry::Global(), options);
  std::cout << GetParam() << ": " << placed.chosen.size() << " partitions (";
  for (const auto& [layout, count] : partitions_in) std::cout << " " << PartitionLayoutsName(layout) << " " << count;
  std::cout << " ), " << executor.num_steps() << " executor steps, conversions included" << std::endl;
  EXPECT_TRUE(testing::OutputsMatch(zoo->model, executor.Run(zoo->arguments), zoo->torch_outputs, 1e-3));
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(ZooSmall, ExecutorZooTest,
                         ::testing::ValuesIn(testing::SmallZooModels()),
                         ParamName);

INSTANTIATE_TEST_SUITE_P(ZooLarge, ExecutorZooTest,
                         ::testing::ValuesIn(testing::LargeZooModels()),
                         ParamName);

}  // namespace
}  // namespace collage
