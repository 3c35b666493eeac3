// The public API's compile and run: outputs equal the reference interpreter's (by name and by
// position), the caller's buffers reach the backend without a copy, the thread count reaches
// the backend, and outputs are named as `collage run --outputs` names them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "api/api_test_support.h"
#include "api/recording_backend.h"

namespace collage {
namespace {

using testing::CompareWithInterpreter;
using testing::RandomInputs;

std::vector<std::string> LibraryBackends() {
  std::vector<std::string> backends;
  for (const char* name : {"onednn", "xnnpack", "native"}) {
    if (testing::HasBackend(name)) backends.push_back(name);
  }
  return backends;
}

TEST(ApiCompileRunTest, OutputsMatchTheInterpreterByNameAndByPosition) {
  const api::Model model = api::Model::Load(testing::kConvBlockPath);
  api::CompileOptions options;
  options.backends = LibraryBackends();
  options.threads = 2;
  api::CompiledModel compiled = api::Compile(model, options);
  const std::vector<api::NamedTensor> inputs = RandomInputs(model, 7);
  const std::vector<api::NamedTensor> by_name = compiled.Run(inputs);
  ASSERT_EQ(by_name.size(), 1u);
  EXPECT_EQ(by_name[0].name, "output");
  EXPECT_EQ(by_name[0].tensor.TypeString(), "Tensor[(1, 2, 2, 2), f32]");
  const Comparison comparison = CompareWithInterpreter(model, inputs, by_name);
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;

  const std::vector<api::NamedTensor> by_position = compiled.Run(std::vector<api::Tensor>{inputs[0].tensor});
  EXPECT_TRUE(CompareWithInterpreter(model, inputs, by_position).ok());

  // Negative control: an output off by a tenth of the output's magnitude fails the comparison.
  std::vector<api::NamedTensor> wrong = {{"output", api::Tensor::Allocate(api::ElementType::kFloat32, {1, 2, 2, 2})}};
  std::memcpy(wrong[0].tensor.data(), by_name[0].tensor.data(), by_name[0].tensor.num_bytes());
  float* values = static_cast<float*>(wrong[0].tensor.data());
  float magnitude = 0;
  for (int i = 0; i < 8; ++i) magnitude = std::max(magnitude, std::abs(values[i]));
  values[3] += 0.1f * magnitude;
  EXPECT_FALSE(CompareWithInterpreter(model, inputs, wrong).ok());
}

TEST(ApiCompileRunTest, ATupleResultIsFlattenedIntoNumberedOutputs) {
  const api::Model model = api::Model::FromText(R"(def @main(%x: Tensor[(2, 3), f32]) {
  %0 = nn.relu(%x)
  %1 = negative(%x)
  (%0, %1)
})",
                                                "pair.cir");
  api::CompiledModel compiled = api::Compile(model, {.backends = {"native"}});
  const std::vector<api::NamedTensor> inputs = RandomInputs(model, 3);
  const std::vector<api::NamedTensor> outputs = compiled.Run(inputs);
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].name, "output0");
  EXPECT_EQ(outputs[1].name, "output1");
  EXPECT_TRUE(CompareWithInterpreter(model, inputs, outputs).ok());
}

TEST(ApiCompileRunTest, ABorrowedInputReachesTheBackendUncopied) {
  const api::Model model = api::Model::FromText("def @main(%x: Tensor[(2, 3), f32]) { nn.relu(%x) }", "relu.cir");
  api::CompiledModel compiled = api::Compile(model, {.backends = {"recording"}});
  ASSERT_EQ(compiled.placement().partitions.size(), 1u);
  ASSERT_EQ(compiled.placement().partitions[0].backend, "recording");
  std::vector<float> buffer = {-1, 2, -3, 4, -5, 6};
  const std::vector<api::NamedTensor> outputs =
      compiled.Run({{"x", api::Tensor::Borrow(api::ElementType::kFloat32, {2, 3}, buffer.data())}});
  ASSERT_EQ(testing::LastRecording().input_addresses.size(), 1u);
  EXPECT_EQ(testing::LastRecording().input_addresses[0], buffer.data());
  EXPECT_EQ(static_cast<const float*>(outputs[0].tensor.data())[1], 2.0f);
  // Negative control: another buffer is seen at its own address, so the check above could fail.
  std::vector<float> other = buffer;
  compiled.Run({{"x", api::Tensor::Borrow(api::ElementType::kFloat32, {2, 3}, other.data())}});
  EXPECT_EQ(testing::LastRecording().input_addresses[0], other.data());
  EXPECT_NE(testing::LastRecording().input_addresses[0], buffer.data());
}

TEST(ApiCompileRunTest, TheThreadCountReachesTheBackend) {
  const api::Model model = api::Model::FromText("def @main(%x: Tensor[(2, 3), f32]) { nn.relu(%x) }", "relu.cir");
  for (int threads : {1, 2}) {
    api::CompiledModel compiled = api::Compile(model, {.backends = {"recording"}, .threads = threads});
    EXPECT_EQ(testing::LastRecording().compiled_threads, threads);
    EXPECT_EQ(compiled.threads(), threads);
  }
}

TEST(ApiCompileRunTest, AvailableBackendsAreTheRegistrysAndTheListGivenIsKept) {
  const std::vector<std::string> available = api::AvailableBackends();
  for (const char* name : {"native", "recording", "failing"}) {
    EXPECT_NE(std::find(available.begin(), available.end(), name), available.end()) << name;
  }
  const api::Model model = api::Model::Load(testing::kMlpPath);
  EXPECT_EQ(api::Compile(model, {.backends = {"native"}}).placement().backends, std::vector<std::string>{"native"});
}

}  // namespace
}  // namespace collage
