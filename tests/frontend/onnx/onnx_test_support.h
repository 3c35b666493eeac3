// Helpers shared by the ONNX importer tests and the model-zoo tests: running the Python
// generators, feeding .npz inputs to an imported model and comparing its outputs.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/onnx/onnx_importer.h"
#include "io/npz.h"
#include "support/value.h"

namespace collage::testing {

// Runs `command` through the shell with its output appended to `log_path`; returns the exit status.
int RunShell(const std::string& command, const std::filesystem::path& log_path);

// Whether Debian's /usr/bin/python3 can import every module in `modules` (e.g. "onnx numpy").
bool PythonHasModules(const std::string& modules);

// The folder a test-model generator (a Python script under the source folder taking the output
// folder and writing manifest.txt last) wrote, generated on first use and cached under the build
// folder by the script's content; empty (with `why` set) when /usr/bin/python3 lacks one of
// `python_modules` (space-separated) or the script fails.
std::filesystem::path GeneratedTestModelDir(const std::string& script_path, const std::string& python_modules,
                                            std::string* why);

// The folder with torch's exports of small modules (tests/pass/export_torch_blocks.py).
std::filesystem::path TorchBlockDir(std::string* why);

// The folder with the models of tests/frontend/onnx/make_test_models.py, generated on first use
// and cached under the build folder by the script's content; empty (with `why` set) when the
// Python side is unavailable.
std::filesystem::path OnnxTestModelDir(std::string* why);

// The model-zoo cache of models/export_zoo.py: $COLLAGE_CACHE_DIR/zoo, or ~/.cache/collage/zoo.
std::filesystem::path ZooCacheDir();
// Makes sure DIR/<name>.{onnx,inputs.npz,outputs.npz} exist, exporting the model with
// /usr/bin/python3 models/export_zoo.py when torch is importable; returns why not otherwise
// (empty on success).
std::string EnsureZooModelExported(const std::filesystem::path& dir, const std::string& name);

// The zoo models small enough for the default test run (label zoo) and the large ones (label
// extended), as models/zoo_models.py names them.
const std::vector<std::string>& SmallZooModels();
const std::vector<std::string>& LargeZooModels();
// The small ones, then the large ones.
std::vector<std::string> AllZooModels();

// One exported zoo model: imported, with its stored input as @main's arguments and torch's
// outputs for that input.
struct ZooCase {
  OnnxModel model;
  std::vector<Value> arguments;
  NamedTensors torch_outputs;
};
// Exports the model first if needed (EnsureZooModelExported); nullopt with `why` set when it
// cannot be had.
std::optional<ZooCase> LoadZooCase(const std::string& name, std::string* why);

// The arguments of `model`'s @main in parameter order, taken from `inputs` by ONNX input name.
std::vector<Value> ArgumentsByName(const OnnxModel& model, const NamedTensors& inputs);

// Compares each output of `result` (a tensor, or a tuple for several outputs) with the array of
// the same name in `expected` by CompareValues' rule: a floating output passes when
// max |actual - expected| <= relative_tolerance * max |expected| (plus a subnormal floor); other
// dtypes must match exactly.
::testing::AssertionResult OutputsMatch(const OnnxModel& model, const Value& result, const NamedTensors& expected,
                                        double relative_tolerance);

// The names of the ops that @main calls.
std::set<std::string> CalledOps(const Module& module);

}  // namespace collage::testing
