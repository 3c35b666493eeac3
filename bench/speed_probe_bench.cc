// Times the tuner's speed probe (tuning/machine_speed.h) repeatedly and prints its spread per
// thread count: what `busy_factor` and `recall_factor` are judged against. Run it on a quiet
// machine, then beside a load (a build), to see how far apart the two are.
//
//   build/bin/speed_probe_bench [--threads N] [--probes N]
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "cpu_line.h"
#include "guarded_main.h"
#include "latency_stats.h"
#include "support/error.h"
#include "tuning/machine_speed.h"

namespace collage::bench {
namespace {

int Run(int argc, char** argv) {
  int threads = 2;
  int probes = 50;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (argument == "--probes" && i + 1 < argc) {
      probes = std::atoi(argv[++i]);
    } else {
      throw Error("unexpected argument '" + argument + "' (usage: speed_probe_bench [--threads N] [--probes N])");
    }
  }
  if (threads < 1 || probes < 1) throw Error("--threads and --probes must be at least 1");
  PrintCpuLine();
  std::cout << std::fixed << std::setprecision(3);
  for (int count : {1, threads}) {
    std::vector<double> milliseconds;
    for (int i = 0; i < probes; ++i) milliseconds.push_back(TimeSpeedProbe(count) * 1e3);
    const LatencySummary summary = Summarize(milliseconds);
    const double fastest = Quantile(milliseconds, 0);
    const double slowest = Quantile(milliseconds, 1);
    std::cout << count << (count == 1 ? " thread:  " : " threads: ") << probes << " probes, min " << fastest
              << " ms, median " << summary.median << " ms, p90 " << summary.p90 << " ms, max " << slowest
              << " ms; median/min " << summary.median / fastest << ", max/min " << slowest / fastest << "\n";
    if (count == threads) break;
  }
  return 0;
}

}  // namespace
}  // namespace collage::bench

int main(int argc, char** argv) {
  return collage::bench::GuardedMain("speed_probe_bench", collage::bench::Run, argc, argv);
}
