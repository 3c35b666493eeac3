// Latency of the model zoo under each placement variant, timed interleaved.
//
//   zoo_latency_bench [MODEL ...] [--threads N] [--rounds N] [--json OUT.json]
//
// Models are names in the zoo cache ($COLLAGE_CACHE_DIR/zoo or ~/.cache/collage/zoo, made by
// models/export_zoo.py); the default is the CI zoo. For each model, batch norms are folded
// (SimplifyInference) and five variants are placed and compiled once each with N threads:
//   single:native, single:onednn, single:openblas, single:xnnpack   PlaceGreedy with that one
//       backend (native, the universal fallback, runs the rest)
//   greedy   onednn, openblas, xnnpack, native in that priority
// A variant that fails to compile shows its one-line reason instead of a time. Each variant's
// outputs are checked once against torch's (MODEL.outputs.npz, within 1e-3 x max |output|).
// Then 2 warm-up rounds and N timed rounds, each running every variant once (round-robin, so
// machine noise hits all variants alike). One Executor::Run, result copy included, is timed.
// Prints one row per model: median ms [p10-p90] per variant and best single / greedy.
// It runs itself under the backends' load-time environment (backend/load_time_environment.h),
// so that one variant's idle worker threads do not starve the next variant's.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/load_time_environment.h"
#include "cpu_line.h"
#include "frontend/onnx/onnx_importer.h"
#include "io/npz.h"
#include "latency_stats.h"
#include "pass/standard_passes.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"

namespace collage {
namespace {

struct Options {
  std::vector<std::string> models;
  int threads = 2;
  int rounds = 10;
  std::string json_path;
};

const int kWarmupRounds = 2;

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--threads") {
      options.threads = std::stoi(value());
    } else if (arg == "--rounds") {
      options.rounds = std::max(std::stoi(value()), 1);
    } else if (arg == "--json") {
      options.json_path = value();
    } else if (arg.starts_with("--")) {
      throw Error("unknown option '" + arg + "'; usage: zoo_latency_bench [MODEL ...] [--threads N] [--rounds N] [--json OUT.json]");
    } else {
      options.models.push_back(arg);
    }
  }
  if (options.models.empty()) options.models = {"mnist_cnn", "dcgan_generator", "squeezenet1_1", "mobilenet_v2", "resnet18"};
  return options;
}

std::filesystem::path ZooCacheDir() {
  if (const char* cache = std::getenv("COLLAGE_CACHE_DIR"); cache != nullptr && *cache != '\0') {
    return std::filesystem::path(cache) / "zoo";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/tmp") / ".cache" / "collage" / "zoo";
}

struct VariantSpec {
  std::string name;
  std::vector<std::string> backends;  // for PlaceGreedy, in priority order
};

const std::vector<VariantSpec>& Variants() {
  static const std::vector<VariantSpec> variants = {
      {"single:native", {"native"}},
      {"single:onednn", {"onednn"}},
      {"single:openblas", {"openblas"}},
      {"single:xnnpack", {"xnnpack"}},
      {"greedy", {"onednn", "openblas", "xnnpack", "native"}},
  };
  return variants;
}

// One placement variant of one model: its executor, or why it has none, and its timings.
struct VariantRun {
  std::string name;
  std::unique_ptr<Executor> executor;
  std::string failure;   // one line, when it did not compile or run
  std::string mismatch;  // one line, when its outputs differ from torch's
  std::vector<double> milliseconds;
};

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

const Tensor* FindArray(const NamedTensors& arrays, const std::string& name) {
  for (const auto& [array_name, tensor] : arrays) {
    if (array_name == name) return &tensor;
  }
  return nullptr;
}

std::vector<Value> ArgumentsByName(const OnnxModel& model, const NamedTensors& inputs) {
  std::vector<Value> arguments;
  for (const std::string& name : model.input_names) {
    const Tensor* tensor = FindArray(inputs, name);
    Check(tensor != nullptr, "no input array named '" + name + "'");
    arguments.emplace_back(*tensor);
  }
  return arguments;
}

// Empty when every output is within 1e-3 x max |expected| of torch's (CompareValues' rule); the
// first difference otherwise.
std::string CompareWithTorch(const OnnxModel& model, const Value& result, const NamedTensors& expected) {
  std::vector<Tensor> expected_tensors;
  for (const std::string& name : model.output_names) {
    const Tensor* want = FindArray(expected, name);
    if (want == nullptr) return "no expected array named '" + name + "'";
    expected_tensors.push_back(*want);
  }
  try {
    const Comparison comparison = CompareTensorLists(result.Flatten(), expected_tensors, Tolerance{1e-3});
    return comparison.ok() ? "" : comparison.first_mismatch;
  } catch (const Error& error) {
    return error.what();
  }
}

struct ModelResult {
  std::string model;
  std::string failure;  // when the model itself could not be loaded
  std::vector<VariantRun> variants;
};

ModelResult BenchModel(const std::string& model_name, const Options& options) {
  ModelResult result{model_name, "", {}};
  const std::string base = (ZooCacheDir() / model_name).string();
  std::optional<OnnxModel> model;
  std::vector<Value> arguments;
  NamedTensors expected;
  try {
    model = ImportOnnxFile(base + ".onnx");
    model->module = StandardPipeline()(model->module);
    arguments = ArgumentsByName(*model, ReadNpz(base + ".inputs.npz"));
    expected = ReadNpz(base + ".outputs.npz");
  } catch (const std::exception& error) {
    result.failure = OneLine(error.what());
    return result;
  }

  const BackendRegistry& registry = BackendRegistry::Global();
  ExecutorOptions executor_options;
  executor_options.compile.threads = options.threads;
  for (const VariantSpec& spec : Variants()) {
    VariantRun& run = result.variants.emplace_back();
    run.name = spec.name;
    try {
      run.executor = std::make_unique<Executor>(PlaceGreedy(model->module, spec.backends, registry), registry,
                                                executor_options);
      run.mismatch = CompareWithTorch(*model, run.executor->Run(arguments), expected);
    } catch (const std::exception& error) {
      run.executor.reset();
      run.failure = OneLine(error.what());
    }
  }

  for (int round = 0; round < kWarmupRounds + options.rounds; ++round) {
    for (VariantRun& run : result.variants) {
      if (!run.executor) continue;
      const double ms = bench::TimeMilliseconds([&] { run.executor->Run(arguments); });
      if (round >= kWarmupRounds) run.milliseconds.push_back(ms);
    }
  }
  return result;
}

// The fastest single-backend variant by median, or null when none ran.
const VariantRun* BestSingle(const ModelResult& result) {
  const VariantRun* best = nullptr;
  for (const VariantRun& run : result.variants) {
    if (!run.executor || !run.name.starts_with("single:")) continue;
    if (!best || bench::Summarize(run.milliseconds).median < bench::Summarize(best->milliseconds).median) best = &run;
  }
  return best;
}

const VariantRun* FindVariant(const ModelResult& result, const std::string& name) {
  for (const VariantRun& run : result.variants) {
    if (run.name == name && run.executor) return &run;
  }
  return nullptr;
}

std::string Cell(const VariantRun& run) {
  if (!run.executor) return "FAILED";
  const bench::LatencySummary summary = bench::Summarize(run.milliseconds);
  std::ostringstream cell;
  cell << std::fixed << std::setprecision(2) << summary.median << " [" << summary.p10 << "-" << summary.p90 << "]";
  if (!run.mismatch.empty()) cell << " MISMATCH!";
  return cell.str();
}

void PrintTable(const std::vector<ModelResult>& results, const Options& options) {
  std::cout << "\nmedian ms [p10-p90] over " << options.rounds << " interleaved rounds, " << options.threads
            << " threads\n";
  std::cout << std::left << std::setw(16) << "model";
  for (const VariantSpec& spec : Variants()) std::cout << std::setw(28) << spec.name;
  std::cout << "best single / greedy\n";
  for (const ModelResult& result : results) {
    std::cout << std::setw(16) << result.model;
    if (!result.failure.empty()) {
      std::cout << "not loaded: " << result.failure << "\n";
      continue;
    }
    for (const VariantRun& run : result.variants) std::cout << std::setw(28) << Cell(run);
    const VariantRun* best = BestSingle(result);
    const VariantRun* greedy = FindVariant(result, "greedy");
    if (best && greedy) {
      std::cout << std::fixed << std::setprecision(2)
                << bench::Summarize(best->milliseconds).median / bench::Summarize(greedy->milliseconds).median << " ("
                << best->name << ")";
    } else {
      std::cout << "-";
    }
    std::cout << "\n";
  }
  for (const ModelResult& result : results) {
    for (const VariantRun& run : result.variants) {
      if (!run.failure.empty()) std::cout << "FAILED " << result.model << " " << run.name << ": " << run.failure << "\n";
      if (!run.mismatch.empty()) {
        std::cout << "!!! MISMATCH " << result.model << " " << run.name << ": " << run.mismatch << "\n";
      }
    }
  }
}

std::string JsonString(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

void WriteJson(const std::vector<ModelResult>& results, const Options& options) {
  std::ofstream out(options.json_path);
  Check(out.good(), "cannot write '" + options.json_path + "'");
  out << "{\"threads\": " << options.threads << ", \"rounds\": " << options.rounds << ", \"models\": [";
  for (size_t m = 0; m < results.size(); ++m) {
    const ModelResult& result = results[m];
    out << (m ? ", " : "") << "{\"model\": " << JsonString(result.model);
    if (!result.failure.empty()) out << ", \"failure\": " << JsonString(result.failure);
    out << ", \"variants\": [";
    for (size_t v = 0; v < result.variants.size(); ++v) {
      const VariantRun& run = result.variants[v];
      out << (v ? ", " : "") << "{\"name\": " << JsonString(run.name);
      if (!run.failure.empty()) out << ", \"failure\": " << JsonString(run.failure);
      if (!run.mismatch.empty()) out << ", \"mismatch\": " << JsonString(run.mismatch);
      if (run.executor) {
        const bench::LatencySummary summary = bench::Summarize(run.milliseconds);
        out << ", \"median_ms\": " << summary.median << ", \"p10_ms\": " << summary.p10
            << ", \"p90_ms\": " << summary.p90 << ", \"ms\": [";
        for (size_t i = 0; i < run.milliseconds.size(); ++i) out << (i ? ", " : "") << run.milliseconds[i];
        out << "]";
      }
      out << "}";
    }
    out << "]}";
  }
  out << "]}\n";
}

int Main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  std::vector<ModelResult> results;
  for (const std::string& model : options.models) {
    std::cout << "benchmarking " << model << " ..." << std::endl;
    results.push_back(BenchModel(model, options));
  }
  PrintTable(results, options);
  if (!options.json_path.empty()) WriteJson(results, options);
  return 0;
}

}  // namespace
}  // namespace collage

int main(int argc, char** argv) {
  collage::ReexecuteWithLoadTimeEnvironment(collage::BackendRegistry::Global(), argv);
  collage::bench::PrintCpuLine();
  try {
    return collage::Main(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "zoo_latency_bench: " << error.what() << "\n";
    return 1;
  }
}
