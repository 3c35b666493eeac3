// Runs an ONNX model as ONE onednn partition and reports its latency, for comparison with
// PyTorch eager (bench/torch_eager_bench.py; bench/compare_resnet50.sh interleaves both).
//
//   onednn_model_bench MODEL.onnx [--threads N] [--runs N] [--warmup N]
//
// The model is imported, batch norms are folded (SimplifyInference), and the whole @main is
// compiled by the onednn backend. Ops outside its table are listed and the bench stops.
// The input is MODEL.inputs.npz next to the model (from models/export_zoo.py) when present,
// and the result is compared with MODEL.outputs.npz (torch's). Prints one line per figure:
//   compile_ms <t>    run_ms_median <t>    run_ms_min <t>    error_vs_torch_relative_to_magnitude <e>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/load_time_environment.h"
#include "cpu_line.h"
#include "frontend/onnx/onnx_importer.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"
#include "support/statistics.h"

namespace collage {
namespace {

struct Options {
  std::string model;
  int threads = 2;
  int runs = 20;
  int warmup = 3;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto next = [&]() -> int {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      return std::stoi(argv[++i]);
    };
    if (arg == "--threads") {
      options.threads = next();
    } else if (arg == "--runs") {
      options.runs = std::max(next(), 1);
    } else if (arg == "--warmup") {
      options.warmup = next();
    } else if (options.model.empty()) {
      options.model = arg;
    } else {
      throw Error("unexpected argument '" + arg + "'");
    }
  }
  if (options.model.empty()) throw Error("usage: onednn_model_bench MODEL.onnx [--threads N] [--runs N] [--warmup N]");
  return options;
}

// Op names of `function`'s calls that the backend does not run, with their counts.
std::map<std::string, int> UnsupportedOps(const Function& function, const Backend& backend) {
  const SupportDeclaration support = backend.Support();
  std::map<std::string, int> unsupported;
  for (const Expr& node : PostOrder(function->body)) {
    const auto* call = As<CallNode>(node);
    if (call && call->op() && !support.supports_op(*call)) ++unsupported[As<OpNode>(call->callee)->name()];
  }
  return unsupported;
}

std::string SiblingFile(const std::string& model, const std::string& suffix) {
  std::filesystem::path path(model);
  return (path.parent_path() / (path.stem().string() + suffix)).string();
}

std::vector<Value> Inputs(const Options& options, const Function& function) {
  const std::string path = SiblingFile(options.model, ".inputs.npz");
  if (!std::filesystem::exists(path)) return RandomArguments(function, 0);
  std::vector<Value> inputs;
  for (auto& [name, tensor] : ReadNpz(path)) inputs.emplace_back(tensor);
  return inputs;
}

// max |error| / max |expected| against torch's outputs (CompareValues' measure); NaN when they
// were not exported.
double ErrorVsTorch(const Options& options, const Value& result) {
  const std::string path = SiblingFile(options.model, ".outputs.npz");
  if (!std::filesystem::exists(path)) return std::nan("");
  std::vector<Tensor> expected;
  for (auto& [name, tensor] : ReadNpz(path)) expected.push_back(tensor);
  return CompareTensorLists(result.Flatten(), expected).max_scaled_error;
}

double Milliseconds(std::chrono::steady_clock::duration duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

int Main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  const BackendPtr backend = BackendRegistry::Global().Get("onednn");
  const Module module = StandardPipeline()(ImportOnnxFile(options.model).module);
  const Function function = module.main();

  const std::map<std::string, int> unsupported = UnsupportedOps(function, *backend);
  if (!unsupported.empty()) {
    std::cout << "ops outside the onednn table:";
    for (const auto& [op, count] : unsupported) std::cout << " " << op << " x" << count;
    std::cout << "\n";
    return 2;
  }

  CompileOptions compile_options;
  compile_options.threads = options.threads;
  const auto compile_start = std::chrono::steady_clock::now();
  std::unique_ptr<Executable> executable = backend->Compile(function, compile_options);
  std::cout << "compile_ms " << Milliseconds(std::chrono::steady_clock::now() - compile_start) << "\n";

  const std::vector<Value> inputs = Inputs(options, function);
  Value result;
  for (int i = 0; i < options.warmup; ++i) result = InvokeExecutable(*executable, function, inputs);
  std::vector<double> times;
  for (int i = 0; i < options.runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    result = InvokeExecutable(*executable, function, inputs);
    times.push_back(Milliseconds(std::chrono::steady_clock::now() - start));
  }
  std::cout << "run_ms_median " << Quantile(times, 0.5) << "\n";
  std::cout << "run_ms_min " << *std::min_element(times.begin(), times.end()) << "\n";
  std::cout << "error_vs_torch_relative_to_magnitude " << ErrorVsTorch(options, result) << "\n";
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
    std::cerr << "onednn_model_bench: " << error.what() << "\n";
    return 1;
  }
}
