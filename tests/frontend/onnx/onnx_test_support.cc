#include "frontend/onnx/onnx_test_support.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "build_paths.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "runtime/compare.h"

namespace collage::testing {
namespace {

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

const Tensor* FindTensor(const NamedTensors& tensors, const std::string& name) {
  for (const auto& [key, tensor] : tensors) {
    if (key == name) return &tensor;
  }
  return nullptr;
}

}  // namespace

int RunShell(const std::string& command, const std::filesystem::path& log_path) {
  const std::string full = "(" + command + ") >>'" + log_path.string() + "' 2>&1";
  const int status = std::system(full.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool PythonHasModules(const std::string& modules) {
  std::string imports;
  std::istringstream names(modules);
  for (std::string name; names >> name;) imports += "import " + name + ";";
  const std::string command = "/usr/bin/python3 -c '" + imports + "' >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

std::filesystem::path GeneratedTestModelDir(const std::string& script_path, const std::string& python_modules,
                                            std::string* why) {
  const std::filesystem::path script = std::filesystem::path(COLLAGE_SOURCE_DIR) / script_path;
  const std::string source = ReadText(script);
  if (source.empty()) {
    *why = "cannot read " + script.string();
    return {};
  }
  std::ostringstream key;
  key << script.stem().string() << "-" << std::hex << std::hash<std::string>()(source);
  const std::filesystem::path dir = std::filesystem::path(COLLAGE_BINARY_DIR) / "onnx_test_models" / key.str();
  if (std::filesystem::exists(dir / "manifest.txt")) return dir;
  if (!PythonHasModules(python_modules)) {
    *why = "/usr/bin/python3 cannot import " + python_modules;
    return {};
  }
  // Generate into a private folder, then rename, so that concurrent test processes never see
  // a half-written folder.
  std::filesystem::create_directories(dir.parent_path());
  const std::filesystem::path staging = dir.string() + ".tmp." + std::to_string(::getpid());
  const std::filesystem::path log = dir.string() + ".log";
  const int status = RunShell("/usr/bin/python3 '" + script.string() + "' '" + staging.string() + "'", log);
  if (status != 0) {
    *why = script.filename().string() + " failed; see " + log.string();
    return {};
  }
  std::error_code error;
  std::filesystem::rename(staging, dir, error);
  if (error) std::filesystem::remove_all(staging, error);  // another process won the race
  if (!std::filesystem::exists(dir / "manifest.txt")) {
    *why = "no manifest.txt in " + dir.string();
    return {};
  }
  return dir;
}

std::filesystem::path OnnxTestModelDir(std::string* why) {
  return GeneratedTestModelDir("tests/frontend/onnx/make_test_models.py", "numpy onnx", why);
}

std::filesystem::path TorchBlockDir(std::string* why) {
  return GeneratedTestModelDir("tests/pass/export_torch_blocks.py", "numpy onnx torch torchvision", why);
}

std::filesystem::path ZooCacheDir() {
  if (const char* cache = std::getenv("COLLAGE_CACHE_DIR"); cache != nullptr && *cache != '\0') {
    return std::filesystem::path(cache) / "zoo";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/tmp") / ".cache" / "collage" / "zoo";
}

std::string EnsureZooModelExported(const std::filesystem::path& dir, const std::string& name) {
  auto exported = [&] {
    for (const char* suffix : {".onnx", ".inputs.npz", ".outputs.npz"}) {
      if (!std::filesystem::exists(dir / (name + suffix))) return false;
    }
    return true;
  };
  if (exported()) return "";
  if (!PythonHasModules("numpy onnx torch torchvision")) {
    return "zoo model " + name + " is not in " + dir.string() +
           " and /usr/bin/python3 cannot import torch, torchvision and onnx to export it";
  }
  std::filesystem::create_directories(dir);
  const std::filesystem::path script = std::filesystem::path(COLLAGE_SOURCE_DIR) / "models" / "export_zoo.py";
  const std::filesystem::path log = dir / (name + ".export.log");
  const int status =
      RunShell("/usr/bin/python3 '" + script.string() + "' --out '" + dir.string() + "' --models " + name, log);
  if (status != 0 || !exported()) return "exporting " + name + " failed; see " + log.string();
  return "";
}

const std::vector<std::string>& SmallZooModels() {
  static const std::vector<std::string> models = {"mnist_cnn", "dcgan_generator", "squeezenet1_1", "mobilenet_v2",
                                                   "resnet18"};
  return models;
}

const std::vector<std::string>& LargeZooModels() {
  static const std::vector<std::string> models = {"resnet50",     "resnext50_32x4d", "efficientnet_b0",
                                                   "densenet121",  "inception_v3",    "vit_b_16",
                                                   "bert_encoder", "gpt2_decoder"};
  return models;
}

std::vector<std::string> AllZooModels() {
  std::vector<std::string> models = SmallZooModels();
  models.insert(models.end(), LargeZooModels().begin(), LargeZooModels().end());
  return models;
}

std::optional<ZooCase> LoadZooCase(const std::string& name, std::string* why) {
  const std::filesystem::path dir = ZooCacheDir();
  *why = EnsureZooModelExported(dir, name);
  if (!why->empty()) return std::nullopt;
  const std::string base = (dir / name).string();
  ZooCase zoo_case{ImportOnnxFile(base + ".onnx"), {}, ReadNpz(base + ".outputs.npz")};
  zoo_case.arguments = ArgumentsByName(zoo_case.model, ReadNpz(base + ".inputs.npz"));
  return zoo_case;
}

std::vector<Value> ArgumentsByName(const OnnxModel& model, const NamedTensors& inputs) {
  std::vector<Value> arguments;
  for (const std::string& name : model.input_names) {
    const Tensor* tensor = FindTensor(inputs, name);
    Check(tensor != nullptr, "no input array named '" + name + "'");
    arguments.push_back(*tensor);
  }
  return arguments;
}

::testing::AssertionResult OutputsMatch(const OnnxModel& model, const Value& result, const NamedTensors& expected,
                                        double relative_tolerance) {
  const std::vector<Tensor> actual =
      model.output_names.size() == 1 ? std::vector<Tensor>{result.tensor()} : result.Flatten();
  if (actual.size() != model.output_names.size()) {
    return ::testing::AssertionFailure() << actual.size() << " results for " << model.output_names.size()
                                         << " output names";
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const std::string& name = model.output_names[i];
    const Tensor* want = FindTensor(expected, name);
    if (want == nullptr) return ::testing::AssertionFailure() << "no expected array named '" << name << "'";
    std::optional<Tolerance> tolerance;
    if (IsFloatingPoint(want->dtype())) tolerance = Tolerance{relative_tolerance};
    try {
      const Comparison comparison = CompareValues(actual[i], *want, tolerance);
      if (!comparison.ok()) {
        return ::testing::AssertionFailure() << name << ": " << comparison.mismatches << " elements differ; first "
                                             << comparison.first_mismatch;
      }
    } catch (const Error& error) {
      return ::testing::AssertionFailure() << name << ": " << error.what();
    }
  }
  return ::testing::AssertionSuccess();
}

std::set<std::string> CalledOps(const Module& module) {
  std::set<std::string> ops;
  for (const Expr& node : PostOrder(module.main())) {
    if (const auto* call = As<CallNode>(node); call != nullptr && call->op() != nullptr) ops.insert(call->op()->name);
  }
  return ops;
}

}  // namespace collage::testing
