// How Compile places a model: on which backends, by which cost model and search, with how many
// threads, and where measured costs are kept. Compile refuses contradictory or invalid options
// with a UsageError worded as the `collage` tool words it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collage/tuning_progress.h"

namespace collage::api {

enum class CostModel {
  kAnalytic,  // each backend's roofline figures; nothing is measured
  kMeasured,  // every candidate compiled and timed in a worker process, kept in a cost database
};

enum class SearchLevel {
  kOp,     // the exact op-level search
  kGraph,  // then the evolutionary search on measured whole-model latency (needs kMeasured)
};

using collage::TuningProgress;

struct CompileOptions {
  // In priority order; empty: every backend of the build (AvailableBackends()).
  std::vector<std::string> backends{};
  CostModel cost = CostModel::kAnalytic;
  SearchLevel search = SearchLevel::kOp;
  double graph_budget_seconds = 120;  // kGraph: wall time of the evolutionary search per function
  int threads = 1;                    // worker threads of every backend, when tuning and running
  std::string database_path{};        // kMeasured: the cost database; "": the default one
  uint64_t seed = 0;                  // of the tuning's random inputs and of the evolutionary search
  bool progress_bar = true;           // kMeasured: a progress bar on stderr when it is a terminal
  std::function<void(const TuningProgress&)> on_progress{};  // kMeasured: called as tuning advances
};

// The backends of this build, in the registry's order.
std::vector<std::string> AvailableBackends();

}  // namespace collage::api
