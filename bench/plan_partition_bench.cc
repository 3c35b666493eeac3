// Times every partition of a plan in isolation, three ways, to see where a plan's estimate
// (the sum of its partitions' isolated timings) and its measured latency part:
//   back-to-back: repeated runs with nothing in between;
//   in-model:     the tuner's cool-down before each run (tuning/measurement.h), in this process;
//   worker:       the same cool-down in a measurement worker process, as the tuner times it.
// Next to them the plan's estimate of the partition. Compare with `collage run MODEL --plan
// PLAN --profile`, which times the partitions inside the model. --cool-down-bytes B writes B
// bytes before each cooled run instead of twice the L2 cache (e.g. twice the last-level cache,
// to see what weights read from memory cost).
//
//   build/bin/plan_partition_bench PLAN [--threads N] [--cool-down-bytes B]
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "cpu_line.h"
#include "guarded_main.h"
#include "pipeline/plan_file.h"
#include "support/error.h"
#include "tuning/measurement.h"
#include "tuning/measurement_process.h"

namespace collage::bench {
namespace {

// The partition functions of `function`'s body, keyed by their global symbol.
void CollectPartitions(const Expr& expr, std::map<std::string, Function>& partitions) {
  if (const auto* function = As<FunctionNode>(expr)) {
    if (function->attrs.Has(attr::kCompiler) && function->attrs.Has(attr::kGlobalSymbol)) {
      partitions[function->attrs.GetString(attr::kGlobalSymbol)] = Downcast<FunctionNode>(expr);
      return;
    }
  }
  ForEachChild(*expr, [&](const Expr& child) { CollectPartitions(child, partitions); });
}

constexpr const char* kUsage = "usage: plan_partition_bench PLAN [--threads N] [--cool-down-bytes B]";

int Run(int argc, char** argv) {
  int threads = 2;
  long long cool_down_bytes = 0;
  std::string plan_path;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (argument == "--cool-down-bytes" && i + 1 < argc) {
      cool_down_bytes = std::atoll(argv[++i]);
    } else if (plan_path.empty() && argument.rfind("--", 0) != 0) {
      plan_path = argument;
    } else {
      throw Error("unexpected argument '" + argument + "' (" + kUsage + ")");
    }
  }
  if (plan_path.empty() || threads < 1 || cool_down_bytes < 0) throw Error(kUsage);
  PrintCpuLine();
  const Plan plan = ReadPlanFile(plan_path);
  std::map<std::string, Function> partitions;
  CollectPartitions(plan.module.main(), partitions);
  CompileOptions compile_options;
  compile_options.threads = threads;
  MeasurementOptions back_to_back;
  back_to_back.target_relative_error = 0.01;
  MeasurementOptions in_model = back_to_back;
  SetInModelCoolDown(in_model);
  if (cool_down_bytes > 0) in_model.cool_down_bytes = static_cast<size_t>(cool_down_bytes);
  MeasurementProcess worker(DefaultMeasurementWorkerPath());
  std::cout << threads << " threads; medians in ms (p10-p90); in-model and worker: " << MeasurementMethod(in_model)
            << "\n";
  std::cout << std::left << std::setw(12) << "partition" << ' ' << std::setw(9) << "backend" << ' ' << std::setw(12)
            << "estimated" << ' ' << std::setw(24) << "back-to-back" << ' ' << std::setw(24) << "in-model" << ' '
            << "worker\n";
  const auto format = [](const Measurement& measurement) {
    std::ostringstream text;
    text << std::setprecision(3) << measurement.median_seconds * 1e3 << " (" << measurement.p10_seconds * 1e3 << "-"
         << measurement.p90_seconds * 1e3 << ")";
    return text.str();
  };
  for (const PlannedPartition& planned : plan.partitions) {
    const auto found = partitions.find(planned.symbol);
    if (found == partitions.end()) throw Error("plan " + plan_path + ": no function for partition " + planned.symbol);
    const BackendPtr backend = BackendRegistry::Global().Get(planned.backend);
    const Measurement fast = MeasurePartition(*backend, found->second, compile_options, back_to_back, 0);
    const Measurement cooled = MeasurePartition(*backend, found->second, compile_options, in_model, 0);
    MeasurementRequest request{planned.backend, found->second, threads, 0, in_model};
    const MeasurementReply reply = worker.Measure(request, 60);
    // A space after each padded column keeps a long figure from running into the next.
    std::cout << std::setw(12) << planned.symbol << ' ' << std::setw(9) << planned.backend << ' ' << std::setw(12)
              << planned.estimated_ms << ' ' << std::setw(24) << format(fast) << ' ' << std::setw(24)
              << format(cooled) << ' ' << (reply.valid ? format(reply.measurement) : "invalid: " + reply.reason) << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace collage::bench

int main(int argc, char** argv) {
  return collage::bench::GuardedMain("plan_partition_bench", collage::bench::Run, argc, argv);
}
