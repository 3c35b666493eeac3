// How Compile places a model: on which backends, by which cost model and search, with how many
// threads, and where measured costs are kept. Compile refuses contradictory or invalid options
// with a UsageError worded as the `collage` tool words it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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

// What the partitions compute in: kFp32 every one in f32; kAuto (needs kMeasured) the op-level
// search may also choose reduced-precision partitions, kept only within the tolerance on the
// calibration inputs and when measured faster than the fp32 plan (the graph stage's with kGraph).
enum class Precision { kFp32, kAuto };

// The error of the worst output against f32: ||y - y_f32|| / ||y_f32||, max |y - y_f32| /
// max |y_f32|, or the fraction of rows whose argmax differs.
enum class AccuracyMetric { kRelativeL2, kMaxRelative, kTop1 };

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
  Precision precision = Precision::kFp32;
  double tolerance = 1e-2;  // kAuto: the largest error accepted, by `metric`
  AccuracyMetric metric = AccuracyMetric::kRelativeL2;
  std::vector<std::string> calibration_files{};  // kAuto: .npz argument sets; empty: 8 seeded random sets
};

// The backends of this build, in the registry's order.
std::vector<std::string> AvailableBackends();

// The cost database CompileOptions::database_path "" stands for: $COLLAGE_COST_DB, else
// ~/.cache/collage/costs.sqlite.
std::string DefaultCostDatabase();

// The checks Compile makes on its options before any work (everything but the graph stage's
// need for a backend that optimizes across ops, which Compile checks): UsageErrors worded after
// the tool's options ("unknown backend 'x' (available: ...)", "--search graph measures whole-model
// latency: it needs --cost measured", ...).
void CheckCompileOptions(const CompileOptions& options);

// The names the tool and the Python package give the options' values: "analytic", "measured";
// "op", "graph"; "fp32", "auto"; "rel-l2", "max-rel", "top1". Parse* returns none for another name.
std::string_view CostModelName(CostModel cost);
std::optional<CostModel> ParseCostModel(std::string_view name);
std::optional<SearchLevel> ParseSearchLevel(std::string_view name);
std::optional<Precision> ParsePrecision(std::string_view name);
std::string_view AccuracyMetricName(AccuracyMetric metric);
std::optional<AccuracyMetric> ParseAccuracyMetric(std::string_view name);
// The tolerance written as `text`; a malformed or out-of-range one is a UsageError
// ("--tolerance expects a number in (0, 1000000], got 'text'").
double ParseTolerance(const std::string& text);

// The thread counts CompileOptions::threads accepts: [1, MostThreads()], at most
// ThreadsPerHardwareThread() per hardware thread of this machine.
int HardwareThreads();
int ThreadsPerHardwareThread();
int MostThreads();
// "at most 4 per hardware thread; this machine has 2".
std::string ThreadsBoundReason();

}  // namespace collage::api
