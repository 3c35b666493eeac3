// Times single-layer partitions through the onednn backend in f32 and in int8 (Precision=i8,
// the activation's range from the input itself), interleaved, and the int8 result's error
// against the f32 one: what a reduced-precision candidate costs and gains, quantizing reorder
// included.
//
//   onednn_int8_partition_bench [--threads N] [--rounds N]
//
// Prints per layer: f32 and int8 median milliseconds, the speedup, and rel-l2 / max-rel of the
// int8 output.
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/precision.h"
#include "cpu_line.h"
#include "guarded_main.h"
#include "latency_stats.h"
#include "parser/parser.h"
#include "runtime/accuracy_metric.h"
#include "runtime/invoke_executable.h"
#include "support/cpu_features.h"

namespace collage {
namespace {

struct Layer {
  std::string name;
  std::string text;  // @main(%x) with constants meta[0] (weights) and meta[1] (bias)
  Shape input;
  Shape weights;
  Shape bias;
};

Layer Convolution(int64_t in, int64_t out, int64_t size, int64_t kernel) {
  const std::string pad = std::to_string(kernel / 2);
  const std::string input = "(1, " + std::to_string(in) + ", " + std::to_string(size) + ", " + std::to_string(size) + ")";
  const std::string weights = "(" + std::to_string(out) + ", " + std::to_string(in) + ", " + std::to_string(kernel) +
                              ", " + std::to_string(kernel) + ")";
  return {"conv " + std::to_string(in) + "->" + std::to_string(out) + " " + std::to_string(size) + "x" +
              std::to_string(size) + " k" + std::to_string(kernel) + "+bias+relu",
          "def @main(%x: Tensor[" + input + ", f32]) {\n  %w = constant(meta[0], Tensor[" + weights +
              ", f32])\n  %b = constant(meta[1], Tensor[(" + std::to_string(out) + "), f32])\n  %c = nn.conv2d(%x, %w, padding=[" +
              pad + ", " + pad + ", " + pad + ", " + pad + "])\n  nn.relu(nn.bias_add(%c, %b))\n}\n",
          {1, in, size, size},
          {out, in, kernel, kernel},
          {out}};
}

Layer Dense(int64_t rows, int64_t depth, int64_t columns) {
  const std::string input = "(" + std::to_string(rows) + ", " + std::to_string(depth) + ")";
  return {"dense " + std::to_string(rows) + "x" + std::to_string(depth) + "->" + std::to_string(columns) + "+bias",
          "def @main(%x: Tensor[" + input + ", f32]) {\n  %w = constant(meta[0], Tensor[(" + std::to_string(columns) +
              ", " + std::to_string(depth) + "), f32])\n  %b = constant(meta[1], Tensor[(" + std::to_string(columns) +
              "), f32])\n  nn.bias_add(nn.dense(%x, %w), %b, axis=1)\n}\n",
          {rows, depth},
          {columns, depth},
          {columns}};
}

int Main(int argc, char** argv) {
  int threads = 2;
  int rounds = 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--threads") {
      threads = std::stoi(argv[i + 1]);
    } else if (arg == "--rounds") {
      rounds = std::stoi(argv[i + 1]);
    } else {
      throw Error("usage: onednn_int8_partition_bench [--threads N] [--rounds N]");
    }
  }
  const BackendPtr backend = BackendRegistry::Global().Find("onednn");
  if (!backend) throw Error("built without onednn");
  bench::PrintCpuLine();
  std::cout << "reduced precision ISA: " << DescribeReducedPrecisionIsa(DetectReducedPrecisionIsa())
            << "  threads: " << threads << "  rounds: " << rounds << "\n";
  const std::vector<Layer> layers = {Convolution(64, 64, 56, 3),   Convolution(256, 64, 56, 1),
                                     Convolution(128, 128, 28, 3), Convolution(512, 512, 7, 3),
                                     Dense(128, 768, 3072),        Dense(1, 2048, 1000)};
  for (const Layer& layer : layers) {
    const Function function = ParseModule(layer.text, layer.name,
                                          {Tensor::Random(DType::kF32, layer.weights, 1, -0.1, 0.1),
                                           Tensor::Random(DType::kF32, layer.bias, 2, -0.1, 0.1)})
                                  .main();
    // Post-ReLU activations: non-negative, so u8.
    const Tensor input = Tensor::Random(DType::kF32, layer.input, 3, 0.0, 1.0);
    const Function quantized = WithPrecision(function, DType::kI8, {{0.0f, 1.0f}});
    CompileOptions options;
    options.threads = threads;
    auto f32 = backend->Compile(function, options);
    auto int8 = backend->Compile(quantized, options);
    const Tensor expected = InvokeExecutable(*f32, function, {Value(input)}).tensor();
    const Tensor actual = InvokeExecutable(*int8, quantized, {Value(input)}).tensor();
    std::vector<Tensor> f32_outputs = {Tensor::Zeros(DType::kF32, expected.shape())};
    std::vector<Tensor> int8_outputs = {Tensor::Zeros(DType::kF32, expected.shape())};
    const std::vector<Tensor> inputs = {input};
    std::vector<double> f32_ms;
    std::vector<double> int8_ms;
    for (int round = 0; round < rounds; ++round) {
      f32_ms.push_back(bench::TimeMilliseconds([&] { f32->Run(inputs, f32_outputs); }));
      int8_ms.push_back(bench::TimeMilliseconds([&] { int8->Run(inputs, int8_outputs); }));
    }
    const double f32_median = bench::Summarize(f32_ms).median;
    const double int8_median = bench::Summarize(int8_ms).median;
    std::cout << std::left << std::setw(34) << layer.name << std::fixed << std::setprecision(3) << "f32_ms "
              << f32_median << "  int8_ms " << int8_median << "  speedup " << std::setprecision(2)
              << f32_median / int8_median << "  rel-l2 " << std::scientific << std::setprecision(2)
              << MeasureError(AccuracyMetric::kRelativeL2, {actual}, {expected}) << "  max-rel "
              << MeasureError(AccuracyMetric::kMaxRelative, {actual}, {expected}) << std::defaultfloat << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace collage

int main(int argc, char** argv) { return collage::bench::GuardedMain("onednn_int8_partition_bench", collage::Main, argc, argv); }
