#include "tuning/interleaved_benchmark.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "interpreter/interpreter.h"
#include "ir/structural_equal.h"
#include "pass/inline_composites.h"
#include "runtime/executor.h"
#include "support/error.h"

namespace collage {

std::vector<size_t> InterleavedOrder(size_t variants, size_t round) {
  // The first row 0, 1, n-1, 2, n-2, ...; row r adds r to each (mod n). For odd n, rows n..2n-1
  // are rows 0..n-1 reversed.
  std::vector<size_t> order(variants);
  if (variants == 0) return order;
  const size_t rows = variants % 2 == 0 ? variants : 2 * variants;
  const size_t row = round % rows;
  for (size_t j = 0; j < variants; ++j) {
    const size_t first_row = j % 2 == 1 ? (j + 1) / 2 : (variants - j / 2) % variants;
    order[j] = (first_row + row) % variants;
  }
  if (row >= variants) std::reverse(order.begin(), order.end());
  return order;
}

std::vector<VariantLatency> BenchmarkInterleaved(const std::vector<BenchmarkVariant>& variants,
                                                 const BackendRegistry& registry, const BenchmarkOptions& options) {
  Check(options.rounds >= 1, "benchmark: at least one round is needed");
  ExecutorOptions executor_options;
  executor_options.compile.threads = options.threads;
  executor_options.cache = options.cache;
  std::vector<VariantLatency> latencies(variants.size());
  std::vector<size_t> timed;  // the variants compiled and timed: the first of each placement
  std::vector<size_t> timed_as(variants.size());
  // Compared with Composite calls inlined where the backend reads them as labels only.
  const auto labels_only = [&registry](const std::string& backend) {
    const BackendPtr found = registry.Find(backend);
    return found != nullptr && found->composites_are_only_labels();
  };
  std::vector<Module> placements;
  for (const BenchmarkVariant& variant : variants) {
    placements.push_back(InlineCompositeCallsOfPartitions(variant.module, labels_only));
  }
  for (size_t v = 0; v < variants.size(); ++v) {
    latencies[v].name = variants[v].name;
    timed_as[v] = v;
    for (size_t earlier : timed) {
      if (StructuralEqual(placements[earlier], placements[v])) {
        timed_as[v] = earlier;
        latencies[v].same_as = variants[earlier].name;
        break;
      }
    }
    if (timed_as[v] == v) timed.push_back(v);
  }
  std::vector<std::unique_ptr<Executor>> executors(variants.size());
  std::vector<Value> arguments;
  for (size_t v : timed) {
    const BenchmarkVariant& variant = variants[v];
    try {
      executors[v] = std::make_unique<Executor>(variant.module, registry, executor_options);
      if (arguments.empty()) arguments = RandomArguments(variant.module.main(), options.seed);
      for (int run = 0; run < options.warmup_runs; ++run) executors[v]->Run(arguments);
    } catch (const Error& error) {
      throw Error("benchmark variant " + variant.name + ": " + error.what());
    }
  }
  MachineSpeed speed(ProbeOnThreads(options.speed_probe, options.threads));
  speed.EnsureBaseline();
  double wait_left = options.busy_wait_seconds;
  int retaken = 0;
  for (int round = 0; round < options.rounds;) {
    const double before = speed.Probe();
    std::vector<std::pair<size_t, double>> samples;
    for (size_t position : InterleavedOrder(timed.size(), static_cast<size_t>(round))) {
      const size_t v = timed[position];
      const auto start = std::chrono::steady_clock::now();
      executors[v]->Run(arguments);
      samples.emplace_back(v, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    if (speed.IsBusy(std::min(before, speed.Probe())) && retaken < options.max_retaken_rounds) {
      ++retaken;
      speed.WaitUntilCalm(wait_left);
      continue;
    }
    for (const auto& [v, milliseconds] : samples) latencies[v].samples.push_back(milliseconds);
    ++round;
  }
  for (size_t v = 0; v < variants.size(); ++v) {
    if (timed_as[v] != v) latencies[v].samples = latencies[timed_as[v]].samples;
    latencies[v].milliseconds = Summarize(latencies[v].samples);
    latencies[v].retaken_rounds = retaken;
  }
  return latencies;
}

}  // namespace collage
