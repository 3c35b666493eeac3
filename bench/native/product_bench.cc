#include "product_bench.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../latency_stats.h"
#include "backend/backend.h"
#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "runtime/compare.h"
#include "support/error.h"
#include "testing/fused_form_text.h"

namespace collage {
namespace {

struct Product {
  std::string name;
  std::string text;
  std::vector<Tensor> constants;  // meta[0], meta[1], ...
};

std::string Dims(const std::vector<int64_t>& shape) {
  std::string text;
  for (int64_t d : shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
  return "(" + text + ")";
}

std::string TensorText(const std::vector<int64_t>& shape) { return "Tensor[" + Dims(shape) + ", f32]"; }

Tensor Weights(const std::vector<int64_t>& shape, uint64_t seed) {
  return Tensor::Random(DType::kF32, shape, seed, -0.1, 0.1);
}

// x (rows x depth) times constant weights (columns x depth, transposed) plus a bias: a
// torch Linear as ONNX Gemm imports it.
Product Dense(int64_t rows, int64_t depth, int64_t columns) {
  return {"dense " + std::to_string(rows) + "x" + std::to_string(depth) + "x" + std::to_string(columns) + " +bias",
          "def @main(%x: " + TensorText({rows, depth}) + ") {\n  %w = constant(meta[0], " +
              TensorText({columns, depth}) + ")\n  %b = constant(meta[1], " + TensorText({columns}) +
              ")\n  add(nn.dense(%x, %w), %b)\n}\n",
          {Weights({columns, depth}, 11), Weights({columns}, 12)}};
}

// x (1 x rows x depth) times constant row-major weights (depth x columns): a torch Linear on
// a 3-d activation as ONNX MatMul imports it.
Product Matmul(int64_t rows, int64_t depth, int64_t columns) {
  return {"matmul " + std::to_string(rows) + "x" + std::to_string(depth) + "x" + std::to_string(columns),
          "def @main(%x: " + TensorText({1, rows, depth}) + ") {\n  %w = constant(meta[0], " +
              TensorText({depth, columns}) + ")\n  nn.matmul(%x, %w)\n}\n",
          {Weights({depth, columns}, 13)}};
}

// Per-head products of attention: batches of rows x depth times depth x columns (or its
// transpose, columns x depth), both operands activations.
Product BatchMatmul(int64_t batches, int64_t rows, int64_t depth, int64_t columns, bool transposed) {
  const std::vector<int64_t> b = transposed ? std::vector<int64_t>{batches, columns, depth}
                                            : std::vector<int64_t>{batches, depth, columns};
  return {"batch_matmul " + std::to_string(batches) + "x" + std::to_string(rows) + "x" + std::to_string(depth) + "x" +
              std::to_string(columns) + (transposed ? " b^T" : ""),
          "def @main(%a: " + TensorText({batches, rows, depth}) + ", %b: " + TensorText(b) +
              ") {\n  nn.batch_matmul(%a, %b" + (transposed ? ", transpose_b=1" : "") + ")\n}\n",
          {}};
}

Product Convolution(int64_t in, int64_t out, int64_t size, int64_t kernel) {
  const std::string pad = std::to_string(kernel / 2);
  return {"conv " + std::to_string(in) + "->" + std::to_string(out) + " " + std::to_string(size) + "x" +
              std::to_string(size) + " k" + std::to_string(kernel) + " +bias+relu",
          "def @main(%x: " + TensorText({1, in, size, size}) + ") {\n  %w = constant(meta[0], " +
              TensorText({out, in, kernel, kernel}) + ")\n  %b = constant(meta[1], " + TensorText({out}) +
              ")\n  nn.relu(nn.bias_add(nn.conv2d(%x, %w, padding=[" + pad + ", " + pad + ", " + pad + ", " + pad +
              "]), %b))\n}\n",
          {Weights({out, in, kernel, kernel}, 14), Weights({out}, 15)}};
}

Product Attention(const std::string& name, int64_t heads, int64_t tokens, int64_t depth) {
  return {name,
          testing::AttentionText({name, 1, heads, tokens, tokens, depth, testing::MaskKind::kNone},
                                 std::sqrt(static_cast<double>(depth))),
          {}};
}

std::vector<Tensor> ZeroOutputs(const Function& function) {
  std::vector<Tensor> outputs;
  const TensorTypeNode* result = AsTensorType(function->body->checked_type());
  Check(result != nullptr, "product bench: a function with one tensor result expected");
  outputs.push_back(Tensor::Zeros(result->dtype, result->shape));
  return outputs;
}

void PrintSummary(const char* label, const LatencySummary& summary) {
  std::printf("  %s %8.3f ms (p10 %.3f, p90 %.3f)", label, summary.median, summary.p10, summary.p90);
}

void BenchProduct(const Product& product, const Backend& native, const Backend& onednn, int threads, int runs) {
  const Function function = ParseModule(product.text, product.name, product.constants).main();
  CompileOptions options;
  options.threads = threads;
  std::unique_ptr<Executable> native_executable = native.Compile(function, options);
  std::unique_ptr<Executable> onednn_executable = onednn.Compile(function, options);
  std::vector<Tensor> inputs;
  for (const Value& value : RandomArguments(function, 1)) inputs.push_back(value.tensor());
  std::vector<Tensor> native_out = ZeroOutputs(function);
  std::vector<Tensor> onednn_out = ZeroOutputs(function);
  native_executable->Run(inputs, native_out);
  onednn_executable->Run(inputs, onednn_out);
  const Comparison comparison = CompareTensorLists(native_out, onednn_out);
  if (!comparison.ok()) throw Error(product.name + ": native and onednn outputs differ: " + comparison.first_mismatch);
  const auto [native_ms, onednn_ms] =
      bench::TimeInterleaved(runs, 3, [&] { native_executable->Run(inputs, native_out); },
                             [&] { onednn_executable->Run(inputs, onednn_out); });
  const LatencySummary native_summary = Summarize(native_ms);
  const LatencySummary onednn_summary = Summarize(onednn_ms);
  std::printf("%-34s", product.name.c_str());
  PrintSummary("native", native_summary);
  PrintSummary("onednn", onednn_summary);
  std::printf("  native/onednn %.2fx\n", native_summary.median / onednn_summary.median);
  std::fflush(stdout);
}

}  // namespace

void BenchProducts(int threads, int runs, const std::string& filter) {
  const BackendPtr native = BackendRegistry::Global().Get("native");
  const BackendPtr onednn = BackendRegistry::Global().Find("onednn");
  if (!onednn) throw Error("built without onednn");
  std::printf("matrix products, native against onednn, %d thread(s), medians of %d interleaved runs\n", threads, runs);
  const std::vector<Product> products = {
      Dense(197, 768, 768),
      Dense(197, 768, 3072),
      Dense(197, 3072, 768),
      Dense(128, 768, 768),
      Dense(1, 2048, 1000),
      Matmul(197, 768, 768),
      Matmul(128, 768, 3072),
      BatchMatmul(12, 197, 64, 197, true),
      BatchMatmul(12, 197, 197, 64, false),
      Attention("attention vit 1x12x197x64", 12, 197, 64),
      Attention("attention bert 1x12x128x64", 12, 128, 64),
      Convolution(64, 64, 56, 3),
      Convolution(256, 64, 56, 1),
      Convolution(512, 512, 7, 3),
  };
  for (const Product& product : products) {
    if (product.name.find(filter) != std::string::npos) BenchProduct(product, *native, *onednn, threads, runs);
  }
}

}  // namespace collage
