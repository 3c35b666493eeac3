// Native backend benchmarks (medians and ratios measured in one run, variants interleaved;
// these machines are shared and noisy).
//
//   native_bench elementwise [threads]   8 chained element-wise ops over 4M floats in one
//                                        fused kernel vs memcpy of the same bytes (16 MB read,
//                                        16 MB written; memcpy runs on one thread, so the
//                                        fair comparison is threads = 1)
//   native_bench fused [threads]         the fused attention, masked-softmax, squeeze-and-
//                                        excitation and RMS-norm kernels against the decomposed
//                                        ops they replace (the same function compiled without
//                                        fusing the forms), gpt2/bert/efficientnet shapes
//   native_bench products [threads] [runs] [filter]
//                                        dense, matmul, batch matmul, attention and convolution
//                                        on transformer and CNN shapes against oneDNN (those
//                                        whose names contain `filter`)
//   native_bench zoo [threads] [runs] [models...]
//                                        whole-model latency of zoo models compiled by native
//
// Kernels are cached in $COLLAGE_CACHE_DIR/native (default ~/.cache/collage/native); zoo
// models are read from $COLLAGE_CACHE_DIR/zoo (export them with models/export_zoo.py).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../cpu_line.h"
#include "../latency_stats.h"
#include "product_bench.h"
#include "backend/load_time_environment.h"
#include "backend/native/native_backend.h"
#include "frontend/onnx/onnx_importer.h"
#include "io/npz.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "runtime/compare.h"
#include "testing/fused_form_text.h"

namespace collage {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

using Summary = bench::LatencySummary;  // median and the 10th / 90th percentiles
using bench::Summarize;

Expr Scalar(float value) { return MakeConstant(Tensor::FromVector<float>({value}, {})); }

// x -> 8 element-wise ops -> y, all in one FuseOps group.
Function ElementwiseChain(int64_t count) {
  const Var x = MakeVar("x", TensorType(DType::kF32, {count}));
  Expr value = CallOp("multiply", {x, Scalar(1.5f)});
  value = CallOp("add", {value, Scalar(0.25f)});
  value = CallOp("nn.relu", {value});
  value = CallOp("subtract", {value, Scalar(0.5f)});
  value = CallOp("maximum", {value, Scalar(-2.0f)});
  value = CallOp("minimum", {value, Scalar(2.0f)});
  value = CallOp("negative", {value});
  value = CallOp("abs", {value});
  Function function = MakeFunction({x}, value);
  InferType(function);
  return function;
}

void BenchElementwise(int threads) {
  constexpr int64_t kCount = 4 * 1024 * 1024;
  constexpr int kRuns = 41;
  CompileOptions options;
  options.threads = threads;
  const Function chain = ElementwiseChain(kCount);
  std::unique_ptr<Executable> executable = NativeBackend().Compile(chain, options);
  Tensor input = Tensor::Random(DType::kF32, {kCount}, 1);
  std::vector<Tensor> output = {Tensor::Zeros(DType::kF32, {kCount})};
  Tensor copy = Tensor::Zeros(DType::kF32, {kCount});
  std::vector<double> kernel_seconds;
  std::vector<double> memcpy_seconds;
  const auto time_memcpy = [&] {
    const auto start = Clock::now();
    std::memcpy(copy.raw_data(), input.raw_data(), input.NumBytes());
    return Seconds(start);
  };
  const auto time_kernel = [&] {
    const auto start = Clock::now();
    executable->Run(std::span<const Tensor>(&input, 1), output);
    return Seconds(start);
  };
  for (int run = 0; run < kRuns + 3; ++run) {  // the first 3 runs warm up
    // Alternating which goes first, so neither always finds the input in cache.
    const bool memcpy_first = run % 2 == 0;
    const double first_time = memcpy_first ? time_memcpy() : time_kernel();
    const double second_time = memcpy_first ? time_kernel() : time_memcpy();
    const double memcpy_time = memcpy_first ? first_time : second_time;
    const double kernel_time = memcpy_first ? second_time : first_time;
    if (run >= 3) {
      memcpy_seconds.push_back(memcpy_time);
      kernel_seconds.push_back(kernel_time);
    }
  }
  const double bytes = 2.0 * static_cast<double>(input.NumBytes());  // read + write
  const Summary kernel = Summarize(kernel_seconds);
  const Summary copy_summary = Summarize(memcpy_seconds);
  std::printf("elementwise chain of 8 ops over %lld floats, %d thread(s), %d interleaved runs\n",
              static_cast<long long>(kCount), threads, kRuns);
  std::printf("  native kernel: median %.3f ms (p10 %.3f, p90 %.3f) = %.2f GB/s\n", kernel.median * 1e3,
              kernel.p10 * 1e3, kernel.p90 * 1e3, bytes / kernel.median / 1e9);
  std::printf("  memcpy:        median %.3f ms (p10 %.3f, p90 %.3f) = %.2f GB/s\n", copy_summary.median * 1e3,
              copy_summary.p10 * 1e3, copy_summary.p90 * 1e3, bytes / copy_summary.median / 1e9);
  std::printf("  native / memcpy bandwidth: %.0f%%\n", 100.0 * copy_summary.median / kernel.median);
}

// Times `function` compiled by native with its decomposed forms fused and without, interleaved
// (the order alternating per run), after checking that both compute the same outputs.
void BenchFusedAgainstDecomposed(const std::string& name, const Function& function, int threads) {
  constexpr int kRuns = 41;
  CompileOptions options;
  options.threads = threads;
  std::unique_ptr<Executable> fused = NativeBackend().Compile(function, options);
  std::unique_ptr<Executable> decomposed = NativeBackend(native::CompilerConfig{}, false).Compile(function, options);
  std::vector<Tensor> inputs;
  for (const Value& value : RandomArguments(function, 1)) inputs.push_back(value.tensor());
  const TensorTypeNode* result = AsTensorType(function->body->checked_type());
  std::vector<Tensor> fused_out = {Tensor::Zeros(result->dtype, result->shape)};
  std::vector<Tensor> decomposed_out = {Tensor::Zeros(result->dtype, result->shape)};
  fused->Run(inputs, fused_out);
  decomposed->Run(inputs, decomposed_out);
  const Comparison comparison = CompareTensorLists(fused_out, decomposed_out);
  if (!comparison.ok()) throw Error(name + ": fused and decomposed outputs differ: " + comparison.first_mismatch);
  const auto [fused_ms, decomposed_ms] = bench::TimeInterleaved(
      kRuns, 3, [&] { fused->Run(inputs, fused_out); }, [&] { decomposed->Run(inputs, decomposed_out); });
  const Summary fused_summary = Summarize(fused_ms);
  const Summary decomposed_summary = Summarize(decomposed_ms);
  std::printf("%-34s fused %8.3f ms (p10 %.3f, p90 %.3f)  decomposed %8.3f ms (p10 %.3f, p90 %.3f)  "
              "decomposed/fused %.2fx\n",
              name.c_str(), fused_summary.median, fused_summary.p10, fused_summary.p90, decomposed_summary.median,
              decomposed_summary.p10, decomposed_summary.p90,
              decomposed_summary.median / fused_summary.median);
}

void BenchFused(int threads) {
  using testing::MaskKind;
  std::printf("fused kernels against the decomposed ops, %d thread(s), medians of 41 interleaved runs\n", threads);
  const std::vector<testing::AttentionShape> attentions = {
      {"attention gpt2 1x12x64x64 select", 1, 12, 64, 64, 64, MaskKind::kSelect},
      {"attention bert 1x12x128x64", 1, 12, 128, 128, 64, MaskKind::kNone},
      {"attention 1x12x512x64 select", 1, 12, 512, 512, 64, MaskKind::kSelect},
      {"attention 1 query x 512 keys additive", 1, 12, 1, 512, 64, MaskKind::kAdditive},
  };
  for (const testing::AttentionShape& shape : attentions) {
    BenchFusedAgainstDecomposed(shape.name, ParseModule(testing::AttentionText(shape, 8.0)).main(), threads);
  }
  const std::vector<testing::SoftmaxShape> softmaxes = {
      {"masked softmax 1x12x64x64 select", {1, 12, 64, 64}, {64, 64}, MaskKind::kSelect},
      {"masked softmax 1x12x128x128 additive", {1, 12, 128, 128}, {128, 128}, MaskKind::kAdditive},
      {"masked softmax 1x12x512x512 select", {1, 12, 512, 512}, {512, 512}, MaskKind::kSelect},
  };
  for (const testing::SoftmaxShape& shape : softmaxes) {
    BenchFusedAgainstDecomposed(shape.name, ParseModule(testing::MaskedSoftmaxText(shape, 8.0)).main(), threads);
  }
  const std::vector<testing::SqueezeExcitationShape> blocks = {
      {"squeeze-excitation 1x96x56x56 r4 silu", 1, 96, 56, 56, 4, true, false},
      {"squeeze-excitation 1x1152x7x7 r48 silu", 1, 1152, 7, 7, 48, true, false},
  };
  for (const testing::SqueezeExcitationShape& shape : blocks) {
    BenchFusedAgainstDecomposed(shape.name, ParseModule(testing::SqueezeExcitationText(shape)).main(), threads);
  }
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{1, 64, 768}, {1, 512, 4096}}) {
    BenchFusedAgainstDecomposed("rms norm " + std::to_string(shape[1]) + "x" + std::to_string(shape[2]),
                                ParseModule(testing::RmsNormText(shape, "1e-06", 0.001)).main(), threads);
  }
}

std::filesystem::path ZooDir() {
  if (const char* cache = std::getenv("COLLAGE_CACHE_DIR"); cache && *cache) return std::filesystem::path(cache) / "zoo";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home ? home : "/tmp") / ".cache" / "collage" / "zoo";
}

void BenchModel(const std::string& name, int threads, int runs) {
  const std::string base = (ZooDir() / name).string();
  if (!std::filesystem::exists(base + ".onnx")) {
    std::printf("%-16s missing (export it with models/export_zoo.py)\n", name.c_str());
    return;
  }
  const OnnxModel model = ImportOnnxFile(base + ".onnx");
  const Function main = model.module.main();
  const NamedTensors named = ReadNpz(base + ".inputs.npz");
  std::vector<Tensor> inputs;
  for (const std::string& input_name : model.input_names) {
    for (const auto& [array_name, tensor] : named) {
      if (array_name == input_name) inputs.push_back(tensor);
    }
  }
  std::vector<Tensor> outputs;
  const Type& result = main->body->checked_type();
  const auto add_output = [&](const Type& type) {
    const TensorTypeNode* tensor = AsTensorType(type);
    outputs.push_back(Tensor::Zeros(tensor->dtype, tensor->shape));
  };
  if (const TupleTypeNode* tuple = AsTupleType(result)) {
    for (const Type& field : tuple->fields) add_output(field);
  } else {
    add_output(result);
  }
  CompileOptions options;
  options.threads = threads;
  auto start = Clock::now();
  std::unique_ptr<Executable> executable = NativeBackend().Compile(main, options);
  const double compile_seconds = Seconds(start);
  executable->Run(inputs, outputs);  // warm-up
  std::vector<double> samples;
  for (int run = 0; run < runs; ++run) {
    start = Clock::now();
    executable->Run(inputs, outputs);
    samples.push_back(Seconds(start));
  }
  const Summary summary = Summarize(samples);
  std::printf("%-16s median %8.2f ms (p10 %8.2f, p90 %8.2f) over %d runs, %d threads; compile %.1f s\n", name.c_str(),
              summary.median * 1e3, summary.p10 * 1e3, summary.p90 * 1e3, runs, threads, compile_seconds);
}

}  // namespace
}  // namespace collage

int main(int argc, char** argv) {
  collage::ReexecuteWithLoadTimeEnvironment(collage::BackendRegistry::Global(), argv);
  collage::bench::PrintCpuLine();
  const std::string mode = argc > 1 ? argv[1] : "elementwise";
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  try {
    if (mode == "elementwise") {
      collage::BenchElementwise(threads);
    } else if (mode == "fused") {
      collage::BenchFused(threads);
    } else if (mode == "products") {
      collage::BenchProducts(threads, argc > 3 ? std::atoi(argv[3]) : 21, argc > 4 ? argv[4] : "");
    } else if (mode == "zoo") {
      const int runs = argc > 3 ? std::atoi(argv[3]) : 10;
      std::vector<std::string> models;
      for (int i = 4; i < argc; ++i) models.push_back(argv[i]);
      if (models.empty()) models = {"mnist_cnn", "dcgan_generator", "squeezenet1_1", "mobilenet_v2", "resnet18"};
      for (const std::string& model : models) collage::BenchModel(model, threads, runs);
    } else {
      std::fprintf(stderr,
                   "usage: native_bench elementwise [threads] | fused [threads] | products [threads] [runs] [filter] |\n"
                   "       native_bench zoo [threads] [runs] [models...]\n");
      return 2;
    }
  } catch (const collage::Error& error) {
    std::fprintf(stderr, "native_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
