// xnnpack_bench: median latency of representative layers (mobilenet_v2 inverted-residual
// blocks, a resnet 3x3 convolution, a squeezenet fire module, a classifier head) and, when the
// model zoo is exported, of whole zoo models that the xnnpack backend accepts in one piece.
// Every workload is first checked once against the reference interpreter (or torch's outputs).
//
//   xnnpack_bench [--threads N] [--repeats N] [--zoo DIR]
//
// DIR defaults to $COLLAGE_CACHE_DIR/zoo or ~/.cache/collage/zoo; export models with
// /usr/bin/python3 models/export_zoo.py.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/load_time_environment.h"
#include "collage/cost_estimator.h"
#include "cpu_line.h"
#include "frontend/onnx/onnx_importer.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"
#include "support/error.h"
#include "tuning/measurement.h"

namespace collage {
namespace {

struct Options {
  int threads = 2;
  int repeats = 50;
  std::filesystem::path zoo;
};

using Ints = std::vector<int64_t>;

Constant Random(Shape shape, uint64_t seed) {
  return MakeConstant(Tensor::Random(DType::kF32, shape, seed, -0.1, 0.1));
}

Expr Conv(const Expr& x, int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t groups, uint64_t seed) {
  const int64_t pad = kernel / 2;
  Expr conv = CallOp("nn.conv2d", {x, Random({out, in / groups, kernel, kernel}, seed)},
                     {{"strides", Ints{stride, stride}}, {"padding", Ints{pad, pad, pad, pad}}, {"groups", groups}});
  return CallOp("nn.bias_add", {conv, Random({out}, seed + 1)});
}

Expr Relu6(const Expr& x) { return CallOp("clip", {x}, {{"a_min", 0.0}, {"a_max", 6.0}}); }

// torchvision's InvertedResidual: 1x1 expand, 3x3 depthwise, 1x1 project (+ residual).
Function InvertedResidual(Shape input, int64_t out, int64_t stride, int64_t expansion) {
  Var x = MakeVar("x", TensorType(DType::kF32, input));
  const int64_t in = input[1], hidden = in * expansion;
  Expr h = Relu6(Conv(x, in, hidden, 1, 1, 1, 1));
  h = Relu6(Conv(h, hidden, hidden, 3, stride, hidden, 3));
  h = Conv(h, hidden, out, 1, 1, 1, 5);
  if (stride == 1 && in == out) h = CallOp("add", {h, x});
  return MakeFunction({x}, h);
}

Function ResnetConv3x3() {
  Var x = MakeVar("x", TensorType(DType::kF32, {1, 64, 56, 56}));
  return MakeFunction({x}, CallOp("nn.relu", {Conv(x, 64, 64, 3, 1, 1, 7)}));
}

// squeezenet1_1's fire module on 27x27 (concatenate is not in this XNNPACK: two results).
Function FireModule() {
  Var x = MakeVar("x", TensorType(DType::kF32, {1, 128, 27, 27}));
  Expr squeeze = CallOp("nn.relu", {Conv(x, 128, 32, 1, 1, 1, 9)});
  return MakeFunction({x}, MakeTuple({CallOp("nn.relu", {Conv(squeeze, 32, 128, 1, 1, 1, 11)}),
                                      CallOp("nn.relu", {Conv(squeeze, 32, 128, 3, 1, 1, 13)})}));
}

Function ClassifierHead() {
  Var x = MakeVar("x", TensorType(DType::kF32, {1, 1280, 7, 7}));
  Expr pooled = CallOp("flatten", {CallOp("nn.global_avg_pool2d", {x})});
  return MakeFunction(
      {x}, CallOp("nn.bias_add", {CallOp("nn.dense", {pooled, Random({1000, 1280}, 15)}), Random({1000}, 16)},
                  {{"axis", int64_t{-1}}}));
}

double TotalFlops(const Function& function) {
  double flops = 0;
  for (const Expr& expr : PostOrder(function->body, false)) {
    if (const auto* call = As<CallNode>(expr); call && call->op()) flops += AnalyticCostEstimator::Flops(*call);
  }
  return flops;
}

// Median and p10 of `repeats` runs after 3 warm-up runs.
Measurement TimeRuns(Executable& executable, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                     int repeats) {
  MeasurementOptions options;
  options.warmup_runs = 3;
  options.min_runs = options.max_runs = repeats;
  options.budget_seconds = 0;
  return MeasureRepeatedly([&] { executable.Run(inputs, outputs); }, options);
}

void PrintRow(const std::string& name, const std::string& check, const Measurement& timing, double flops) {
  std::cout << std::left << std::setw(44) << name << std::setw(26) << check << std::right << std::fixed
            << std::setprecision(3) << "median " << std::setw(8) << timing.median_seconds * 1e3 << " ms  p10 " << std::setw(8)
            << timing.p10_seconds * 1e3 << " ms" << std::setprecision(1) << std::setw(8)
            << flops / timing.median_seconds * 1e-9
            << " GFLOP/s (median)" << std::endl;
}

// Compiles and times `function` on `args`; `check` says how the result was verified.
void Measure(const std::string& name, const Function& function, const std::vector<Value>& args,
             const std::string& check, const Options& options) {
  const BackendPtr backend = BackendRegistry::Global().Get("xnnpack");
  CompileOptions compile_options;
  compile_options.threads = options.threads;
  const std::unique_ptr<Executable> executable = backend->Compile(function, compile_options);
  std::vector<Tensor> inputs;
  for (const Value& arg : args) inputs.push_back(arg.Flatten().at(0));
  std::vector<Tensor> outputs = AllocateFlattened(function->body->checked_type());
  PrintRow(name, check, TimeRuns(*executable, inputs, outputs, options.repeats), TotalFlops(function));
}

void MeasureLayer(const std::string& name, Function function, const Options& options) {
  InferType(function);
  const std::vector<Value> args = RandomArguments(function, 1);
  const BackendPtr backend = BackendRegistry::Global().Get("xnnpack");
  const std::unique_ptr<Executable> executable = backend->Compile(function, {});
  const Comparison comparison = CompareValues(InvokeExecutable(*executable, function, args), Evaluate(function, args));
  std::ostringstream check;
  check << (comparison.ok() ? "ok" : "MISMATCH") << " (max err / max |expected| " << std::scientific
        << std::setprecision(1) << comparison.max_scaled_error << ")";
  Measure(name, function, args, check.str(), options);
}

// max |actual - expected| / max |expected| over the outputs (CompareValues' measure).
double RelativeError(const Value& actual, const NamedTensors& expected) {
  std::vector<Tensor> expected_tensors;
  for (const auto& [name, tensor] : expected) expected_tensors.push_back(tensor);
  return CompareTensorLists(actual.Flatten(), expected_tensors).max_scaled_error;
}

void MeasureZooModel(const std::string& name, const Options& options) {
  const std::string base = (options.zoo / name).string();
  if (!std::filesystem::exists(base + ".onnx")) {
    std::cout << name << ": not exported in " << options.zoo << std::endl;
    return;
  }
  const OnnxModel model = ImportOnnxFile(base + ".onnx");
  const NamedTensors inputs = ReadNpz(base + ".inputs.npz");
  std::vector<Value> args;
  for (const auto& [input_name, tensor] : inputs) args.push_back(tensor);
  const Function main = model.module.main();
  try {
    const std::unique_ptr<Executable> executable = BackendRegistry::Global().Get("xnnpack")->Compile(main, {});
    std::ostringstream check;
    check << "vs torch " << std::scientific << std::setprecision(1)
          << RelativeError(InvokeExecutable(*executable, main, args), ReadNpz(base + ".outputs.npz"));
    Measure(name + " (whole model)", main, args, check.str(), options);
  } catch (const Error& error) {
    std::cout << name << ": not one xnnpack partition: " << error.what() << std::endl;
  }
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  const char* cache = std::getenv("COLLAGE_CACHE_DIR");
  const char* home = std::getenv("HOME");
  options.zoo = cache ? std::filesystem::path(cache) / "zoo"
                      : std::filesystem::path(home ? home : ".") / ".cache" / "collage" / "zoo";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--threads")
      options.threads = std::stoi(argv[i + 1]);
    else if (flag == "--repeats")
      options.repeats = std::max(1, std::stoi(argv[i + 1]));
    else if (flag == "--zoo")
      options.zoo = argv[i + 1];
    else
      throw Error("xnnpack_bench: unknown flag " + flag + " (expected --threads, --repeats or --zoo)");
  }
  return options;
}

int Main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  if (!BackendRegistry::Global().Find("xnnpack")) {
    std::cerr << "xnnpack_bench: this build has no xnnpack backend (install libxnnpack-dev)" << std::endl;
    return 1;
  }
  std::cout << "xnnpack, " << options.threads << " threads, median of " << options.repeats << " runs" << std::endl;
  MeasureLayer("mobilenet_v2 block 24->24 @56x56 (t=6)", InvertedResidual({1, 24, 56, 56}, 24, 1, 6), options);
  MeasureLayer("mobilenet_v2 block 16->24 @112x112 s2 (t=6)", InvertedResidual({1, 16, 112, 112}, 24, 2, 6), options);
  MeasureLayer("resnet conv3x3 64->64 @56x56 + relu", ResnetConv3x3(), options);
  MeasureLayer("squeezenet fire 128->32->2x128 @27x27", FireModule(), options);
  MeasureLayer("classifier head 1280x7x7 -> 1000", ClassifierHead(), options);
  for (const char* model : {"mobilenet_v2", "squeezenet1_1", "resnet18", "efficientnet_b0"})
    MeasureZooModel(model, options);
  return 0;
}

}  // namespace
}  // namespace collage

int main(int argc, char** argv) {
  collage::ReexecuteWithLoadTimeEnvironment(collage::BackendRegistry::Global(), argv);
  collage::bench::PrintCpuLine();
  try {
    return collage::Main(argc, argv);
  } catch (const collage::Error& error) {
    std::cerr << error.what() << std::endl;
    return 1;
  }
}
