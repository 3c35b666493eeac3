// The public API's calls behind `collage run` and `collage partition`: greedy placement, seeded
// inputs and inputs from named arrays, the check against the reference interpreter (with a
// negative control), the profile, the search summary, placing without compiling, and .npz files.
#include <gtest/gtest.h>

#include <cstring>

#include "api/api_test_support.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

constexpr const char* kRelu = R"(def @main(%x: Tensor[(2, 3), f32]) -> Tensor[(2, 3), f32] {
  nn.relu(%x)
})";

using testing::MessageOf;

// A copy of `tensor` (f32) with `delta` added to its first element.
api::Tensor Perturbed(const api::Tensor& tensor, float delta) {
  api::Tensor copy = api::Tensor::Allocate(tensor.element_type(), tensor.shape());
  std::memcpy(copy.data(), tensor.data(), tensor.num_bytes());
  static_cast<float*>(copy.data())[0] += delta;
  return copy;
}

TEST(ApiRunTest, AGreedyPlacementMatchesTheReferenceAndAWrongOutputDoesNot) {
  const api::Model model = api::Model::Load(testing::kConvBlockPath);
  api::CompiledModel compiled = api::PlaceGreedily(model, {"native"}, 2);
  EXPECT_FALSE(compiled.search().has_value());
  EXPECT_FALSE(compiled.reduced_precision());
  const std::vector<api::Tensor> inputs = compiled.RandomInputs(7);
  ASSERT_EQ(inputs.size(), compiled.inputs().size());
  const std::vector<api::NamedTensor> outputs = compiled.Run(inputs);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].name, "output");
  const api::ReferenceCheck check = compiled.CheckAgainstReference(inputs, outputs);
  EXPECT_TRUE(check.ok) << check.failure;
  EXPECT_EQ(check.summary.rfind("max abs error: ", 0), 0u) << check.summary;

  // Negative control: one element off by far more than the tolerance.
  const std::vector<api::NamedTensor> wrong = {{"output", Perturbed(outputs[0].tensor, 100.0f)}};
  const api::ReferenceCheck failed = compiled.CheckAgainstReference(inputs, wrong);
  EXPECT_FALSE(failed.ok);
  EXPECT_EQ(failed.failure.rfind("1 elements differ from the reference; first: ", 0), 0u) << failed.failure;
}

TEST(ApiRunTest, TheSameSeedGivesTheSameInputs) {
  const api::CompiledModel compiled = api::PlaceGreedily(api::Model::FromText(kRelu), {"native"});
  const api::Tensor first = compiled.RandomInputs(3).at(0);
  const api::Tensor again = compiled.RandomInputs(3).at(0);
  const api::Tensor other = compiled.RandomInputs(4).at(0);
  EXPECT_EQ(first.ValuesAsDouble(), again.ValuesAsDouble());
  EXPECT_NE(first.ValuesAsDouble(), other.ValuesAsDouble());
}

TEST(ApiRunTest, ArraysAreMatchedToParametersWithErrorsNamingTheFile) {
  const api::CompiledModel compiled = api::PlaceGreedily(api::Model::FromText(kRelu), {"native"});
  std::vector<float> values(6, 1.0f);
  const api::Tensor x = api::Tensor::Borrow(api::ElementType::kFloat32, {2, 3}, values.data());
  const std::vector<api::Tensor> inputs = compiled.InputsFromArrays({{"x", x}}, "in.npz");
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0].data(), values.data()) << "the array's buffer is used as it is";
  EXPECT_EQ(MessageOf<UsageError>([&] { compiled.InputsFromArrays({}, "in.npz"); }),
            "in.npz: no array for parameter 'x' (expected Tensor[(2, 3), f32]); the file has: none");
  EXPECT_EQ(MessageOf<UsageError>([&] { compiled.InputsFromArrays({{"x", x}, {"y", x}}, "in.npz"); }),
            "in.npz: array 'y' matches no parameter of @main (parameters: x)");
}

TEST(ApiRunTest, TheProfileCoversTheRunsSinceItWasCleared) {
  api::CompiledModel compiled = api::PlaceGreedily(api::Model::Load(testing::kConvBlockPath), {"native"});
  const std::vector<api::Tensor> inputs = compiled.RandomInputs(1);
  compiled.Run(inputs);
  compiled.ClearProfile();
  for (int run = 0; run < 3; ++run) compiled.Run(inputs);
  const api::RunProfile profile = compiled.Profile();
  EXPECT_NE(profile.table.find("native"), std::string::npos) << profile.table;
  EXPECT_GT(profile.arena_bytes, 0u);
  EXPECT_GE(profile.bytes_without_reuse, profile.arena_bytes);
}

TEST(ApiRunTest, PlaceCompilesOnTheFirstRunAndCompileAtOnce) {
  const api::Model model = api::Model::FromText(kRelu, "relu.cir");
  api::CompiledModel placed = api::Place(model, {.backends = {"failing"}});
  const std::optional<api::SearchSummary> search = placed.search();
  ASSERT_TRUE(search.has_value());
  EXPECT_NE(search->listing.find("failing_0"), std::string::npos) << search->listing;
  EXPECT_FALSE(search->tuning.has_value()) << "analytic costs tune nothing";
  EXPECT_EQ(search->op_level_partitions, placed.placement().partitions.size());
  std::vector<float> values(6, 1.0f);
  const api::Tensor x = api::Tensor::Borrow(api::ElementType::kFloat32, {2, 3}, values.data());
  EXPECT_NE(MessageOf<BackendError>([&] { placed.Run({{"x", x}}); }).find("refuses to compile anything"),
            std::string::npos);
  EXPECT_THROW(api::Compile(model, {.backends = {"failing"}}), BackendError);
}

TEST(ApiNpzTest, ArraysRoundTripThroughAFile) {
  testing::TempDirectory directory;
  std::vector<int32_t> values = {1, -2, 3};
  const std::string path = directory.PathOf("a.npz");
  api::WriteNpz(path, {{"v", api::Tensor::Borrow(api::ElementType::kInt32, {3}, values.data())}});
  const std::vector<api::NamedTensor> arrays = api::ReadNpz(path);
  ASSERT_EQ(arrays.size(), 1u);
  EXPECT_EQ(arrays[0].name, "v");
  EXPECT_EQ(arrays[0].tensor.TypeString(), "Tensor[(3), i32]");
  EXPECT_EQ(arrays[0].tensor.ValuesAsDouble(), (std::vector<double>{1, -2, 3}));
  EXPECT_EQ(MessageOf<UsageError>([&] { api::ReadNpz(directory.PathOf("missing.npz")); })
                .rfind("cannot open '" + directory.PathOf("missing.npz") + "'", 0),
            0u);
}

}  // namespace
}  // namespace collage
