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
// machine noise hits all variants alike). One CompiledModel::Run, outputs included, is timed.
// Prints one row per model: median ms [p10-p90] per variant and best single / greedy.
// It runs itself under the backends' load-time environment (api::ReexecuteWithBackendEnvironment),
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

#include <nlohmann/json.hpp>

#include "collage/collage.h"
#include "cpu_line.h"
#include "latency_stats.h"

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

// One placement variant of one model: its compiled model, or why it has none, and its timings.
struct VariantRun {
  std::string name;
  std::optional<api::CompiledModel> compiled;
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

const api::Tensor* FindArray(const std::vector<api::NamedTensor>& arrays, const std::string& name) {
  for (const api::NamedTensor& array : arrays) {
    if (array.name == name) return &array.tensor;
  }
  return nullptr;
}

// Empty when every output has torch's type and is within 1e-3 x max |expected| of it; the first
// difference otherwise.
std::string CompareWithTorch(const api::Model& model, const std::vector<api::NamedTensor>& outputs,
                             const std::vector<api::NamedTensor>& expected) {
  if (outputs.size() != model.output_names().size()) {
    return std::to_string(outputs.size()) + " outputs for " + std::to_string(model.output_names().size()) +
           " graph outputs";
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string& name = model.output_names()[i];
    const api::Tensor* want = FindArray(expected, name);
    if (want == nullptr) return "no expected array named '" + name + "'";
    const api::Tensor& got = outputs[i].tensor;
    if (got.element_type() != want->element_type() || got.shape() != want->shape()) {
      return "output '" + name + "' is " + got.TypeString() + ", torch's " + want->TypeString();
    }
    const std::vector<double> actual = got.ValuesAsDouble();
    const std::vector<double> reference = want->ValuesAsDouble();
    double largest = 0;
    for (double value : reference) largest = std::max(largest, std::abs(value));
    for (size_t element = 0; element < actual.size(); ++element) {
      if (!(std::abs(actual[element] - reference[element]) <= 1e-3 * largest)) {
        std::ostringstream difference;
        difference << "output '" << name << "' element " << element << ": got " << actual[element] << ", expected "
                   << reference[element] << " (bound 0.001 * max |expected| " << largest << ")";
        return difference.str();
      }
    }
  }
  return "";
}

struct ModelResult {
  std::string model;
  std::string failure;  // when the model itself could not be loaded
  std::vector<VariantRun> variants;
};

ModelResult BenchModel(const std::string& model_name, const Options& options) {
  ModelResult result{model_name, "", {}};
  const std::string base = (ZooCacheDir() / model_name).string();
  std::optional<api::Model> model;
  std::vector<api::NamedTensor> inputs;
  std::vector<api::NamedTensor> expected;
  try {
    model = api::Model::Load(base + ".onnx");
    inputs = api::ReadNpz(base + ".inputs.npz");
    expected = api::ReadNpz(base + ".outputs.npz");
  } catch (const std::exception& error) {
    result.failure = OneLine(error.what());
    return result;
  }

  for (const VariantSpec& spec : Variants()) {
    VariantRun& run = result.variants.emplace_back();
    run.name = spec.name;
    try {
      run.compiled = api::PlaceGreedily(*model, spec.backends, options.threads);
      run.mismatch = CompareWithTorch(*model, run.compiled->Run(inputs), expected);
    } catch (const std::exception& error) {
      run.compiled.reset();
      run.failure = OneLine(error.what());
    }
  }

  for (int round = 0; round < kWarmupRounds + options.rounds; ++round) {
    for (VariantRun& run : result.variants) {
      if (!run.compiled) continue;
      const double ms = bench::TimeMilliseconds([&] { run.compiled->Run(inputs); });
      if (round >= kWarmupRounds) run.milliseconds.push_back(ms);
    }
  }
  return result;
}

// The fastest single-backend variant by median, or null when none ran.
const VariantRun* BestSingle(const ModelResult& result) {
  const VariantRun* best = nullptr;
  for (const VariantRun& run : result.variants) {
    if (!run.compiled || !run.name.starts_with("single:")) continue;
    if (!best || bench::Summarize(run.milliseconds).median < bench::Summarize(best->milliseconds).median) best = &run;
  }
  return best;
}

const VariantRun* FindVariant(const ModelResult& result, const std::string& name) {
  for (const VariantRun& run : result.variants) {
    if (run.name == name && run.compiled) return &run;
  }
  return nullptr;
}

std::string Cell(const VariantRun& run) {
  if (!run.compiled) return "FAILED";
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

void WriteJson(const std::vector<ModelResult>& results, const Options& options) {
  nlohmann::ordered_json models = nlohmann::ordered_json::array();
  for (const ModelResult& result : results) {
    nlohmann::ordered_json model = {{"model", result.model}};
    if (!result.failure.empty()) model["failure"] = result.failure;
    nlohmann::ordered_json variants = nlohmann::ordered_json::array();
    for (const VariantRun& run : result.variants) {
      nlohmann::ordered_json variant = {{"name", run.name}};
      if (!run.failure.empty()) variant["failure"] = run.failure;
      if (!run.mismatch.empty()) variant["mismatch"] = run.mismatch;
      if (run.compiled) {
        const bench::LatencySummary summary = bench::Summarize(run.milliseconds);
        variant["median_ms"] = summary.median;
        variant["p10_ms"] = summary.p10;
        variant["p90_ms"] = summary.p90;
        variant["ms"] = run.milliseconds;
      }
      variants.push_back(std::move(variant));
    }
    model["variants"] = std::move(variants);
    models.push_back(std::move(model));
  }
  const nlohmann::ordered_json json = {{"threads", options.threads}, {"rounds", options.rounds}, {"models", models}};
  std::ofstream out(options.json_path);
  out << json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  if (!out) throw UsageError("cannot write '" + options.json_path + "'");
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
  collage::api::ReexecuteWithBackendEnvironment(argv);
  collage::bench::PrintCpuLine();
  try {
    return collage::Main(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "zoo_latency_bench: " << error.what() << "\n";
    return 1;
  }
}
