#include "tuning/interleaved_benchmark.h"

#include <chrono>
#include <memory>

#include "interpreter/interpreter.h"
#include "runtime/executor.h"
#include "support/error.h"

namespace collage {

std::vector<VariantLatency> BenchmarkInterleaved(const std::vector<BenchmarkVariant>& variants,
                                                 const BackendRegistry& registry, const BenchmarkOptions& options) {
  Check(options.rounds >= 1, "benchmark: at least one round is needed");
  ExecutorOptions executor_options;
  executor_options.compile.threads = options.threads;
  executor_options.cache = options.cache;
  std::vector<std::unique_ptr<Executor>> executors;
  std::vector<Value> arguments;
  for (const BenchmarkVariant& variant : variants) {
    try {
      executors.push_back(std::make_unique<Executor>(variant.module, registry, executor_options));
      if (arguments.empty()) arguments = RandomArguments(variant.module.main(), options.seed);
      for (int run = 0; run < options.warmup_runs; ++run) executors.back()->Run(arguments);
    } catch (const Error& error) {
      throw Error("benchmark variant " + variant.name + ": " + error.what());
    }
  }
  std::vector<VariantLatency> latencies(variants.size());
  for (size_t v = 0; v < variants.size(); ++v) latencies[v].name = variants[v].name;
  for (int round = 0; round < options.rounds; ++round) {
    for (size_t step = 0; step < variants.size(); ++step) {
      const size_t v = (step + static_cast<size_t>(round)) % variants.size();
      const auto start = std::chrono::steady_clock::now();
      executors[v]->Run(arguments);
      latencies[v].samples.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
  for (VariantLatency& latency : latencies) latency.milliseconds = Summarize(latency.samples);
  return latencies;
}

}  // namespace collage
