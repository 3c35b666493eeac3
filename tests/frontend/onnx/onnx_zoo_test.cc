// The model zoo through the importer and the reference interpreter, against torch's outputs:
// every output within 1e-3 x max |output|. The models come from models/export_zoo.py in
// $COLLAGE_CACHE_DIR/zoo (default ~/.cache/collage/zoo); a missing model is exported first
// when /usr/bin/python3 has torch, torchvision and onnx, and the test is skipped otherwise.
// ZooSmall/* run by default (ctest label zoo), ZooLarge/* only in the extended label.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"

namespace collage {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class OnnxZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxZooTest, ReferenceInterpreterMatchesTorch) {
  const std::string& name = GetParam();
  std::string why;
  auto start = std::chrono::steady_clock::now();
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(name, &why);
  if (!zoo) GTEST_SKIP() << why;
  const double load_seconds = SecondsSince(start);

  start = std::chrono::steady_clock::now();
  const Value result = Evaluate(zoo->model.module.main(), zoo->arguments);
  const double run_seconds = SecondsSince(start);
  std::cout << name << ": export (if needed) and import " << load_seconds << " s, reference run " << run_seconds
            << " s" << std::endl;
  RecordProperty("import_seconds", std::to_string(load_seconds));
  RecordProperty("reference_run_seconds", std::to_string(run_seconds));

  EXPECT_TRUE(testing::OutputsMatch(zoo->model, result, zoo->torch_outputs, 1e-3));
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(ZooSmall, OnnxZooTest,
                         ::testing::ValuesIn(testing::SmallZooModels()),
                         ParamName);

INSTANTIATE_TEST_SUITE_P(ZooLarge, OnnxZooTest,
                         ::testing::ValuesIn(testing::LargeZooModels()),
                         ParamName);

}  // namespace
}  // namespace collage
