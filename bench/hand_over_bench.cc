// Times the hand-over between every ordered pair of the build's backends with their probe
// partitions (tuning/hand_over_cost.h) and prints, per pair, the probes alone, the consumer's
// probe after the producer's and after itself, and their difference: the hand-over cost the
// measured tuning charges (when positive). The reference interpreter is left out.
//
//   build/bin/hand_over_bench [--threads N] [--rounds N] [--backends A,B,...]
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cpu_line.h"
#include "guarded_main.h"
#include "support/error.h"
#include "tuning/hand_over_cost.h"

namespace collage::bench {
namespace {

std::vector<std::string> SplitNames(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) names.push_back(name);
  return names;
}

int Run(int argc, char** argv) {
  int threads = 2;
  int rounds = 40;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (argument == "--rounds" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (argument == "--backends" && i + 1 < argc) {
      names = SplitNames(argv[++i]);
    } else {
      throw Error("unexpected argument '" + argument +
                  "' (usage: hand_over_bench [--threads N] [--rounds N] [--backends A,B,...])");
    }
  }
  if (threads < 1 || rounds < 1) throw Error("--threads and --rounds must be at least 1");
  PrintCpuLine();
  std::cout << threads << " threads, " << rounds << " interleaved rounds\n";
  const BackendRegistry& registry = BackendRegistry::Global();
  if (names.empty()) names = registry.Names();
  CompileOptions options;
  options.threads = threads;
  std::vector<BackendPtr> probed;
  for (const std::string& name : names) {
    const BackendPtr backend = registry.Get(name);
    if (backend->kind() == BackendKind::kInterpreter) continue;
    if (HandOverProbe(*backend, options)) {
      probed.push_back(backend);
    } else {
      std::cout << name << ": no probe partition (skipped)\n";
    }
  }
  std::cout << std::left << std::setw(22) << "producer->consumer" << std::right << std::setw(12) << "producer us"
            << std::setw(12) << "consumer us" << std::setw(16) << "after producer" << std::setw(16)
            << "after itself" << std::setw(14) << "hand-over us" << "\n";
  for (const BackendPtr& producer : probed) {
    for (const BackendPtr& consumer : probed) {
      if (producer == consumer) continue;
      const HandOverMeasurement measured = MeasureHandOver(*producer, *consumer, options, rounds);
      std::cout << std::left << std::setw(22) << producer->name() + "->" + consumer->name() << std::right
                << std::fixed << std::setprecision(1) << std::setw(12) << measured.producer_seconds * 1e6
                << std::setw(12) << measured.consumer_seconds * 1e6 << std::setw(16)
                << measured.ConsumerAfterProducer() * 1e6 << std::setw(16) << measured.ConsumerAfterItself() * 1e6
                << std::setw(14) << (measured.ConsumerAfterProducer() - measured.ConsumerAfterItself()) * 1e6
                << "\n";
    }
  }
  return 0;
}

}  // namespace
}  // namespace collage::bench

int main(int argc, char** argv) { return collage::bench::GuardedMain("hand_over_bench", collage::bench::Run, argc, argv); }
