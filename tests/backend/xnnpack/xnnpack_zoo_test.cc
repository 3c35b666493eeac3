// Whole zoo models that the xnnpack backend runs as one partition, against torch's outputs
// (the same tolerance as the importer's zoo test: 1e-3 x max |output|). These models use only
// mapped ops (conv2d, bias, relu/clip/sigmoid, add/multiply, pooling, flatten, dense), so
// XNNPACK takes them whole; squeezenet1_1 needs concatenate, which this XNNPACK lacks.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include "backend/xnnpack/xnnpack_backend.h"
#include "frontend/onnx/onnx_test_support.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

class XnnpackZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(XnnpackZooTest, WholeModelMatchesTorch) {
  const std::string& name = GetParam();
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(name, &why);
  if (!zoo) GTEST_SKIP() << why;
  const Function main = zoo->model.module.main();
  CompileOptions options;
  options.threads = 2;
  const std::unique_ptr<Executable> executable = XnnpackBackend().Compile(main, options);
  const Value result = InvokeExecutable(*executable, main, zoo->arguments);
  EXPECT_TRUE(testing::OutputsMatch(zoo->model, result, zoo->torch_outputs, 1e-3));
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(ZooSmall, XnnpackZooTest, ::testing::Values("mobilenet_v2", "resnet18"), ParamName);
INSTANTIATE_TEST_SUITE_P(ZooLarge, XnnpackZooTest, ::testing::Values("efficientnet_b0"), ParamName);

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
