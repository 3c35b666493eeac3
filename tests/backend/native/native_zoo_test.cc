// The CI model zoo compiled as one function by the native backend: its outputs must match
// both the reference interpreter and torch within 1e-3 x max |output|. Models come from
// models/export_zoo.py (see tests/frontend/onnx/onnx_zoo_test.cc); the kernel cache lives in
// the build tree.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "build_paths.h"
#include "backend/native/native_backend.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The outputs of `result` named like the model's outputs.
NamedTensors Named(const OnnxModel& model, const Value& result) {
  const std::vector<Tensor> tensors = result.Flatten();
  NamedTensors named;
  for (size_t i = 0; i < tensors.size() && i < model.output_names.size(); ++i) {
    named.emplace_back(model.output_names[i], tensors[i]);
  }
  return named;
}

class NativeZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(NativeZooTest, WholeModelMatchesReferenceAndTorch) {
  const std::string& name = GetParam();
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(name, &why);
  if (!zoo) GTEST_SKIP() << why;
  const OnnxModel& model = zoo->model;
  const Function main = model.module.main();
  const std::vector<Value>& args = zoo->arguments;

  CompileOptions options;
  options.threads = 2;
  options.cache_dir = std::string(COLLAGE_BINARY_DIR) + "/test-cache";
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Executable> executable = NativeBackend().Compile(main, options);
  const double compile_seconds = SecondsSince(start);
  start = std::chrono::steady_clock::now();
  const Value result = InvokeExecutable(*executable, main, args);
  const double run_seconds = SecondsSince(start);
  std::cout << name << ": native compile " << compile_seconds << " s, first run " << run_seconds << " s" << std::endl;

  EXPECT_TRUE(testing::OutputsMatch(model, result, zoo->torch_outputs, 1e-3)) << "against torch";
  EXPECT_TRUE(testing::OutputsMatch(model, result, Named(model, Evaluate(main, args)), 1e-3))
      << "against the reference interpreter";
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(ZooSmall, NativeZooTest,
                         ::testing::ValuesIn(testing::SmallZooModels()),
                         ParamName);

INSTANTIATE_TEST_SUITE_P(ZooLarge, NativeZooTest,
                         ::testing::ValuesIn(testing::LargeZooModels()),
                         ParamName);

}  // namespace
}  // namespace collage
