// End-to-end latency of several plans of one model, timed interleaved in one process, so that
// a noisy host slows every plan alike (separate `collage run --plan` processes, one after the
// other, varied by 30 % from one to the next on the shared 2-vCPU hosts). Each plan is compiled
// once and timed in rounds as `collage bench` times its variants (tuning/interleaved_benchmark.h);
// prints each plan's median and p10-p90 in ms and its ratio to the first plan's median.
//
//   build/bin/plan_comparison_bench PLAN PLAN... [--threads N] [--rounds N] [--seed S]
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "cpu_line.h"
#include "guarded_main.h"
#include "pipeline/plan_file.h"
#include "support/error.h"
#include "tuning/interleaved_benchmark.h"

namespace collage::bench {
namespace {

constexpr const char* kUsage = "usage: plan_comparison_bench PLAN PLAN... [--threads N] [--rounds N] [--seed S]";

int Run(int argc, char** argv) {
  BenchmarkOptions options;
  options.threads = 2;
  options.rounds = 20;
  std::vector<std::string> plan_paths;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--threads" && i + 1 < argc) {
      options.threads = std::atoi(argv[++i]);
    } else if (argument == "--rounds" && i + 1 < argc) {
      options.rounds = std::atoi(argv[++i]);
    } else if (argument == "--seed" && i + 1 < argc) {
      options.seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (argument.rfind("--", 0) != 0) {
      plan_paths.push_back(argument);
    } else {
      throw Error("unexpected argument '" + argument + "' (" + kUsage + ")");
    }
  }
  if (plan_paths.empty() || options.threads < 1 || options.rounds < 1) throw Error(kUsage);
  PrintCpuLine();
  std::vector<BenchmarkVariant> variants;
  std::string model_hash;
  for (const std::string& path : plan_paths) {
    Plan plan = ReadPlanFile(path);
    if (model_hash.empty()) model_hash = plan.model_hash;
    if (plan.model_hash != model_hash) {
      throw Error("plan " + path + " was made for model hash " + plan.model_hash + ", the first plan for " + model_hash);
    }
    variants.push_back({path, std::move(plan.module)});
  }
  const std::vector<VariantLatency> latencies = BenchmarkInterleaved(variants, BackendRegistry::Global(), options);
  std::cout << options.threads << " threads, " << options.rounds << " interleaved rounds";
  if (!latencies.empty() && latencies.front().retaken_rounds > 0) {
    std::cout << " (" << latencies.front().retaken_rounds << " taken again: the machine was busy)";
  }
  std::cout << "; median ms (p10-p90), median / first plan's\n" << std::fixed << std::setprecision(3);
  for (const VariantLatency& latency : latencies) {
    const LatencySummary& ms = latency.milliseconds;
    std::cout << std::left << std::setw(40) << latency.name << ' ' << ms.median << " (" << ms.p10 << "-" << ms.p90
              << ")  " << ms.median / latencies.front().milliseconds.median;
    if (!latency.same_as.empty()) std::cout << "  (the same placement as " << latency.same_as << ")";
    std::cout << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace collage::bench

int main(int argc, char** argv) {
  return collage::bench::GuardedMain("plan_comparison_bench", collage::bench::Run, argc, argv);
}
