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
  const std::filesystem::path dir = testing::ZooCacheDir();
  if (const std::string why = testing::EnsureZooModelExported(dir, name); !why.empty()) GTEST_SKIP() << why;
  const std::string base = (dir / name).string();

  auto start = std::chrono::steady_clock::now();
  const OnnxModel model = ImportOnnxFile(base + ".onnx");
  const double import_seconds = SecondsSince(start);
  const NamedTensors inputs = ReadNpz(base + ".inputs.npz");
  const NamedTensors expected = ReadNpz(base + ".outputs.npz");

  start = std::chrono::steady_clock::now();
  const Value result = Evaluate(model.module.main(), testing::ArgumentsByName(model, inputs));
  const double run_seconds = SecondsSince(start);
  std::cout << name << ": import " << import_seconds << " s, reference run " << run_seconds << " s" << std::endl;
  RecordProperty("import_seconds", std::to_string(import_seconds));
  RecordProperty("reference_run_seconds", std::to_string(run_seconds));

  EXPECT_TRUE(testing::OutputsMatch(model, result, expected, 1e-3, 0.0));
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(ZooSmall, OnnxZooTest,
                         ::testing::Values("mnist_cnn", "dcgan_generator", "squeezenet1_1", "mobilenet_v2", "resnet18"),
                         ParamName);

INSTANTIATE_TEST_SUITE_P(ZooLarge, OnnxZooTest,
                         ::testing::Values("resnet50", "resnext50_32x4d", "efficientnet_b0", "densenet121",
                                           "inception_v3", "vit_b_16", "bert_encoder", "gpt2_decoder"),
                         ParamName);

}  // namespace
}  // namespace collage
