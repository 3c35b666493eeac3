// The public API's errors: each class for its cause, each with the `collage` tool's one-line
// message.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "api/api_test_support.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

using testing::MessageOf;

const char kRelu[] = "def @main(%x: Tensor[(2, 3), f32]) { nn.relu(%x) }";

TEST(ApiErrorsTest, BadOptionsAreUsageErrorsWithTheToolsMessages) {
  const api::Model model = api::Model::FromText(kRelu, "relu.cir");
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.backends = {"native", "nope"}}); })
                .rfind("unknown backend 'nope' (available: ", 0),
            0u);
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.backends = {"native", "native"}}); }),
            "backend 'native' listed twice in --backends");
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.search = api::SearchLevel::kGraph}); }),
            "--search graph measures whole-model latency: it needs --cost measured");
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.database_path = "costs.sqlite"}); }),
            "--db (the measured-cost database) needs --cost measured");
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.precision = api::Precision::kAuto}); }),
            "--precision auto chooses precisions by measured cost: it needs --cost measured");
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.tolerance = -1}); }),
            "--tolerance expects a number in (0, 1000000], got '-1'");
  EXPECT_EQ(MessageOf<UsageError>([&] { api::Compile(model, {.threads = 0}); }).rfind("--threads expects an integer in [1, ", 0),
            0u);
  EXPECT_EQ(MessageOf<UsageError>([&] {
              api::Compile(model, {.backends = {"native"}, .cost = api::CostModel::kMeasured,
                                   .search = api::SearchLevel::kGraph});
            }).rfind("--search graph needs a backend that optimizes across the ops of a partition", 0),
            0u);
  // Negative control: the same model compiles with valid options.
  EXPECT_NO_THROW(api::Compile(model, {.backends = {"native"}, .threads = 1}));
}

TEST(ApiErrorsTest, ModelsThatCannotBeLoadedAreModelErrorsWithTheToolsMessages) {
  EXPECT_EQ(MessageOf<ModelError>([] { api::Model::Load("/nonexistent/model.onnx"); }),
            "model file '/nonexistent/model.onnx' does not exist");
  EXPECT_EQ(MessageOf<ModelError>([] { api::Model::Load(testing::kIllTypedPath); }),
            testing::kIllTypedPath + ":8:8: nn.dense: weight dimension 1 (6) must equal the last data dimension 1 (5)");
  EXPECT_EQ(MessageOf<ModelError>([] { api::Model::FromText("def @main(%x: Tensor[(2), f32]) { nn.nope(%x) }", "t.cir"); })
                .rfind("t.cir:1:", 0),
            0u);
  EXPECT_EQ(MessageOf<ModelError>([] { api::Model::FromOnnxBytes("not a protobuf", "junk.onnx"); }).rfind("junk.onnx", 0),
            0u);
  EXPECT_EQ(MessageOf<ModelError>([] { api::Model::Load(testing::kMlpPath, {{"features", {2, 4}}}); }),
            testing::kMlpPath + ": --shape binds ONNX graph inputs; a text-IR model has static shapes");
}

TEST(ApiErrorsTest, InputsOfTheWrongNameTypeOrShapeAreUsageErrors) {
  const api::Model model = api::Model::FromText(kRelu, "relu.cir");
  api::CompiledModel compiled = api::Compile(model, {.backends = {"native"}});
  std::vector<float> values(6, 1.0f);
  std::vector<int32_t> integers(6, 1);
  const api::Tensor good = api::Tensor::Borrow(api::ElementType::kFloat32, {2, 3}, values.data());
  EXPECT_EQ(MessageOf<UsageError>([&] { compiled.Run({{"y", good}}); }),
            "no input for parameter 'x' (expected Tensor[(2, 3), f32]); given: y");
  EXPECT_EQ(MessageOf<UsageError>([&] { compiled.Run({{"x", good}, {"y", good}}); }),
            "input 'y' matches no parameter of @main (parameters: x)");
  EXPECT_EQ(MessageOf<UsageError>([&] {
              compiled.Run({{"x", api::Tensor::Borrow(api::ElementType::kFloat32, {3, 2}, values.data())}});
            }),
            "input 'x' is Tensor[(3, 2), f32] but parameter 'x' expects Tensor[(2, 3), f32]");
  EXPECT_EQ(MessageOf<UsageError>([&] {
              compiled.Run({{"x", api::Tensor::Borrow(api::ElementType::kInt32, {2, 3}, integers.data())}});
            }),
            "input 'x' is Tensor[(2, 3), i32] but parameter 'x' expects Tensor[(2, 3), f32]");
  EXPECT_EQ(MessageOf<UsageError>([&] { compiled.Run(std::vector<api::Tensor>{good, good}); }),
            "@main expects 1 inputs, got 2");
  EXPECT_NO_THROW(compiled.Run({{"x", good}}));
}

TEST(ApiErrorsTest, APartitionABackendCannotCompileIsABackendError) {
  const api::Model model = api::Model::FromText(kRelu, "relu.cir");
  const std::string message = MessageOf<BackendError>([&] { api::Compile(model, {.backends = {"failing"}}); });
  EXPECT_NE(message.find("backend 'failing' cannot compile it: failing: refuses to compile anything"), std::string::npos)
      << message;
}

TEST(ApiErrorsTest, EveryClassIsACollageError) {
  EXPECT_THROW(api::Model::Load("/nonexistent.cir"), Error);
  EXPECT_THROW(api::Compile(api::Model::FromText(kRelu), {.backends = {"nope"}}), Error);
  EXPECT_THROW(api::Compile(api::Model::FromText(kRelu), {.backends = {"failing"}}), Error);
}

}  // namespace
}  // namespace collage
