// The measured cost estimator: a candidate's cost is the measured latency of
// its partition function (partition_function.h), compiled by its backend and timed in a
// worker process (measurement_process.h) on seeded random inputs.
//
// Costs are memoized by the function's structure (constant values aside) and backend, and
// persisted in the cost database (runtime/cost_database.h) under (structural hash, backend
// and CostVersion, device fingerprint, thread count), so that a second tuning of the same model
// measures nothing. Prepare measures every candidate of a search eagerly: code generators
// compile all their candidates first in batches, then candidates are timed one at a time so
// that timings do not disturb each other, each group of alternatives over the same operators
// fastest-looking first, so that a far slower alternative is timed once only
// (alternative_candidates.h). A candidate that fails to compile or run, crashes
// the worker or times out is Invalid, with the reason kept in invalid(); tuning carries on. A
// failure for a passing reason (a time-out, the worker killed from outside) is stored as
// transient: the next tuning measures that candidate again instead of recalling it. A timing
// taken while the machine was busy (machine_speed.h) is taken again once it calms down; every
// cost is stored with how fast the machine was (its speed probe), and a tuning on a machine
// now faster than that by the recall factor measures it again instead of recalling it. Confirm
// times the few candidates a decision rests on again, with its own method and cost key.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.h"
#include "collage/tuning_progress.h"
#include "collage/cost_estimator.h"
#include "runtime/cost_database.h"
#include "support/progress_bar.h"
#include "tuning/cpu_usage.h"
#include "tuning/machine_speed.h"
#include "tuning/measurement.h"
#include "tuning/measurement_process.h"

namespace collage {

// The version part of the cost keys of `backend`'s measurements: its declared version and,
// for a backend built from a src/backend/<name>/ folder, the hash of its sources, so that a
// changed lowering or code generator is measured again rather than recalled.
std::string CostVersion(const Backend& backend);

struct MeasuredCostOptions {
  MeasurementOptions measurement;
  // How Confirm times, under its own cost key (e.g. ConfirmationMethod(measurement),
  // confirmation_method.h); unset: as `measurement`, under the same key.
  std::optional<MeasurementOptions> confirmation;
  int threads = 1;
  uint64_t seed = 0;
  // Per candidate: compiling (when not done in a batch before) and timing it.
  double timeout_seconds = 60;
  std::string worker_path;  // "": DefaultMeasurementWorkerPath()
  std::string cache_dir;    // compile caches of the backends ("": their default)
  bool show_progress = true;  // a progress bar on stderr when it is a terminal
  // Called after every item of each stage, whether or not the bar is shown.
  std::function<void(const TuningProgress&)> on_progress;
  // Timed on `threads` threads before and after each measurement to tell a busy machine
  // (machine_speed.h); empty: every timing is stored.
  std::function<double(int threads)> speed_probe = TimeSpeedProbe;
  // A probe slower than this times the fastest one means the machine is busy. Only a clear burst:
  // on a 2-core AMD EPYC shared with builds, two-thread probes had a median of 2x their fastest
  // and a p90 of 4x, while a 64x768x768 product timed between them ran at 2.0x its fastest.
  double busy_factor = 4;
  // A stored cost whose probe is slower than this times this tuning's fastest is measured again
  // rather than recalled: above busy_factor, so that ordinary differences in load between two
  // tunings do not make each re-measure what the other stored.
  double recall_factor = 5;
  // The most seconds one estimator waits, in all, for a busy machine to calm down.
  double busy_wait_seconds = 5;
  // The CPU time used so far by the machine, the worker process given and the tuner (cpu_usage.h),
  // taken around each request to a running worker; empty: not taken.
  std::function<std::optional<CpuSnapshot>(pid_t worker)> cpu_snapshot = TakeCpuSnapshot;
};

struct TuningStats {
  size_t candidates = 0;     // asked about (host candidates excluded)
  size_t distinct = 0;       // distinct (function, backend) pairs among them
  size_t from_database = 0;  // found in the cost database
  size_t measured = 0;       // timed now (invalid ones included)
  size_t invalid = 0;        // could not be compiled, run or timed in time
  size_t transient = 0;      // of the invalid ones measured now, those invalid for a passing reason
  size_t retimed = 0;        // timed again because the machine was busy during their first timing
  size_t busy = 0;           // used although timed on a busy machine: it did not calm down in time
  size_t from_busier = 0;    // found in the database but timed on a busier machine: measured again
  size_t dominated = 0;      // of the measured ones, stopped after one run: an alternative was far faster
  size_t confirmed = 0;      // timings taken by Confirm
  size_t worker_starts = 0;
  double seconds = 0;        // spent in Prepare and in measurements outside it
  // Wall seconds of the requests to a running worker around which CPU snapshots were taken, and the
  // CPU seconds other processes used during them.
  double worker_seconds = 0;
  double other_processes_cpu_seconds = 0;
  // How many cores other processes kept busy on average while the worker served those requests.
  double OtherProcessesCores() const {
    return worker_seconds > 0 ? std::max(0.0, other_processes_cpu_seconds) / worker_seconds : 0;
  }
  // "812 candidates, 430 distinct: 400 from the database, 30 measured (3 invalid) in 12.3 s", and a
  // warning when other processes kept more than kNotableOtherCores cores busy while candidates
  // were timed (over at least kNotableWorkerSeconds).
  std::string ToString() const;
  static constexpr double kNotableOtherCores = 0.25;
  static constexpr double kNotableWorkerSeconds = 1;
};

struct InvalidCandidate {
  std::string description;  // "onednn: nn.conv2d+nn.relu (1x64x56x56)"
  std::string reason;
};

class MeasuredCostEstimator final : public CostEstimator {
 public:
  // `database` may be null (nothing persisted); it must outlive the estimator.
  MeasuredCostEstimator(const BackendRegistry& registry, MeasuredCostOptions options, CostDatabase* database);

  void Prepare(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) override;
  Cost Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) override;
  // Times each distinct valid candidate kConfirmRounds times as options.confirmation says, the
  // candidates in turn per round (so that a burst of contention slows one timing of each rather
  // than every timing of one), and keeps and stores the fastest of those timings and of the one
  // stored under the confirmation's key; later estimates return it.
  void Confirm(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) override;
  static constexpr int kConfirmRounds = 3;

  const TuningStats& stats() const { return stats_; }
  const std::vector<InvalidCandidate>& invalid() const { return invalid_; }

 private:
  // One distinct thing to cost: a partition function on a backend.
  struct Job {
    Function function;
    BackendPtr backend;
    CostKey key;
    std::string description;
    // The request's MeasurementOptions::dominated_above_seconds (alternative_candidates.h).
    double dominated_above_seconds = 0;
  };

  // A measurement and the faster of the speed probes around it (0 without probes): both are slow
  // when a burst covers the measurement.
  struct Timing {
    MeasurementReply reply;
    double probe_seconds = 0;
  };

  // `hash`: HexHash(function), the key's function part.
  Job MakeJob(const CandidatePartition& candidate, const Function& function, const std::string& hash) const;
  // From the database, or nullopt.
  std::optional<Cost> Recall(const Job& job);
  Timing Time(const Job& job) { return Time(job, options_.measurement); }
  Timing Time(const Job& job, const MeasurementOptions& method);
  bool TakenWhileBusy(const Timing& timing) const;
  // The cost of a timing, stored with its probe.
  Cost Record(const Job& job, const Timing& timing);
  // Records a failed measurement; a transient one is measured again by the next tuning.
  Cost RecordInvalid(const Job& job, const std::string& reason, bool transient);
  ProgressBar::Display Display() const;
  void ReportProgress(std::string_view stage, size_t done, size_t total, std::string_view current) const;
  void CompileCodeGeneratorsInBatches(std::vector<Job>& pending, std::vector<bool>& done);

  const BackendRegistry& registry_;
  MeasuredCostOptions options_;
  CostDatabase* database_;
  std::string device_;
  // Appended to each backend's version in the cost key: the measurement method, when not the default.
  std::string version_suffix_;
  std::string confirmation_suffix_;  // of options_.confirmation, or version_suffix_
  MeasurementProcess worker_;
  MachineSpeed speed_;
  double busy_wait_left_;
  CostCache memo_;
  TuningStats stats_;
  std::vector<InvalidCandidate> invalid_;
};

}  // namespace collage
