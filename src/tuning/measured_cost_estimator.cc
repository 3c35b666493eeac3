#include "tuning/measured_cost_estimator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "backend/backend_source_hash.h"
#include "backend/boundary_layout.h"
#include "backend/precision.h"
#include "collage/partition_function.h"
#include "ir/structural_equal.h"
#include "runtime/device_fingerprint.h"
#include "support/progress_bar.h"
#include "tuning/alternative_candidates.h"

namespace collage {
namespace {

// Functions compiled per batch by a code generator before timing (one progress step each).
constexpr size_t kCompileBatch = 32;

// " (<measurement method>)", or "" for the default back-to-back timing.
std::string VersionSuffix(const MeasurementOptions& options) {
  const std::string method = MeasurementMethod(options);
  return method.empty() ? "" : " (" + method + ")";
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What a candidate is timed as: its partition function, its quantization ranges by sign only.
Function TimedFunction(const DataflowGraph& graph, const CandidatePartition& candidate) {
  const Function function = ExtractPartitionFunction(graph, candidate);
  return function ? WithRangesBySign(function) : function;
}

std::string HexHash(const Function& function) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016zx", StructuralHash(function));
  return text;
}

// "1x64x56x56" for the first parameter's shape, "" without parameters.
std::string FirstInputShape(const Function& function) {
  if (function->params.empty()) return "";
  const TensorTypeNode* tensor = AsTensorType(function->params.front()->checked_type());
  if (tensor == nullptr) return "";
  std::string text;
  for (int64_t dimension : tensor->shape) text += (text.empty() ? "" : "x") + std::to_string(dimension);
  return text;
}

}  // namespace

std::string TuningStats::ToString() const {
  std::ostringstream text;
  text.precision(3);
  text << candidates << " candidates, " << distinct << " distinct: " << from_database << " from the database, "
       << measured << " measured (" << invalid << " invalid";
  if (transient > 0) text << ", " << transient << " of them transient";
  text << ") in " << std::fixed << seconds << " s";
  if (retimed > 0) text << "; " << retimed << " timed again after the machine was busy";
  if (busy > 0) text << "; " << busy << " still timed on a busy machine (measured again when it is calmer)";
  if (from_busier > 0) text << "; " << from_busier << " stored costs timed on a busier machine measured again";
  if (dominated > 0) text << "; " << dominated << " timed once, dominated by a far faster alternative";
  if (confirmed > 0) text << "; " << confirmed << " timings taken to confirm a decision";
  if (worker_seconds >= kNotableWorkerSeconds && OtherProcessesCores() > kNotableOtherCores) {
    text.unsetf(std::ios::floatfield);
    text << "; other processes kept " << std::setprecision(2) << OtherProcessesCores()
         << " cores busy while candidates were timed, so timings may be too slow (tune on a quiet machine)";
  }
  return text.str();
}

std::string CostVersion(const Backend& backend) {
  const std::string sources = BackendSourceHash(backend.name());
  return sources.empty() ? backend.version() : backend.version() + " sources " + sources.substr(0, 16);
}

MeasuredCostEstimator::MeasuredCostEstimator(const BackendRegistry& registry, MeasuredCostOptions options,
                                             CostDatabase* database)
    : registry_(registry),
      options_(std::move(options)),
      database_(database),
      device_(DeviceFingerprint()),
      version_suffix_(VersionSuffix(options_.measurement)),
      confirmation_suffix_(options_.confirmation ? VersionSuffix(*options_.confirmation) : version_suffix_),
      worker_(options_.worker_path.empty() ? DefaultMeasurementWorkerPath() : options_.worker_path,
              options_.cache_dir),
      speed_(ProbeOnThreads(options_.speed_probe, options_.threads), options_.busy_factor),
      busy_wait_left_(options_.busy_wait_seconds) {}

MeasuredCostEstimator::Job MeasuredCostEstimator::MakeJob(const CandidatePartition& candidate,
                                                          const Function& function, const std::string& hash) const {
  Job job;
  job.function = function;
  job.backend = registry_.Get(candidate.backend());
  job.key = CostKey{hash, job.backend->name(), CostVersion(*job.backend) + version_suffix_, device_,
                    options_.threads};
  job.description = job.backend->name() + ": " + candidate.sub_graph().label() + " (" + FirstInputShape(function) + ")";
  const PartitionLayouts layouts = BoundaryLayoutsOf(function);
  if (!layouts.IsPlain()) job.description += " [" + PartitionLayoutsName(layouts) + "]";
  return job;
}

std::optional<Cost> MeasuredCostEstimator::Recall(const Job& job) {
  if (database_ == nullptr) return std::nullopt;
  const std::optional<CostRecord> record = database_->Lookup(job.key);
  if (!record) return std::nullopt;
  if (record->transient) return std::nullopt;  // measured again: the failure may not recur
  if (record->valid && record->probe_seconds > 0 &&
      speed_.IsSlowerThan(record->probe_seconds, options_.recall_factor)) {
    ++stats_.from_busier;
    return std::nullopt;
  }
  ++stats_.from_database;
  if (!record->valid) {
    invalid_.push_back(InvalidCandidate{job.description, record->reason});
    ++stats_.invalid;
    return Cost::Invalid();
  }
  return Cost::Seconds(record->seconds);
}

MeasuredCostEstimator::Timing MeasuredCostEstimator::Time(const Job& job, const MeasurementOptions& method) {
  MeasurementRequest request{job.backend->name(), job.function, options_.threads, options_.seed, method};
  request.options.dominated_above_seconds = job.dominated_above_seconds;
  const size_t starts_before = worker_.starts();
  const double before = speed_.Probe();
  // Snapshots around a request to a running worker that serves it whole (not one started or
  // replaced during it).
  const pid_t worker = worker_.pid();
  std::optional<CpuSnapshot> cpu_before;
  if (options_.cpu_snapshot && worker > 0) cpu_before = options_.cpu_snapshot(worker);
  const auto start = std::chrono::steady_clock::now();
  Timing timing;
  timing.reply = worker_.Measure(request, options_.timeout_seconds);
  if (cpu_before && worker_.pid() == worker) {
    const double request_seconds = SecondsSince(start);
    if (const std::optional<CpuSnapshot> cpu_after = options_.cpu_snapshot(worker)) {
      stats_.worker_seconds += request_seconds;
      stats_.other_processes_cpu_seconds += OtherProcessesSeconds(*cpu_before, *cpu_after);
    }
  }
  timing.probe_seconds = std::min(before, speed_.Probe());
  stats_.worker_starts += worker_.starts() - starts_before;
  return timing;
}

bool MeasuredCostEstimator::TakenWhileBusy(const Timing& timing) const {
  return timing.reply.valid && speed_.IsBusy(timing.probe_seconds);
}

Cost MeasuredCostEstimator::Record(const Job& job, const Timing& timing) {
  const MeasurementReply& reply = timing.reply;
  if (!reply.valid) return RecordInvalid(job, reply.reason, reply.transient);
  if (database_ != nullptr) {
    const Measurement& m = reply.measurement;
    CostRecord record;
    record.seconds = m.seconds;
    record.median_seconds = m.median_seconds;
    record.p10_seconds = m.p10_seconds;
    record.p90_seconds = m.p90_seconds;
    record.runs = m.runs;
    record.description = job.description;
    record.probe_seconds = timing.probe_seconds;
    database_->Store(job.key, record);
  }
  return Cost::Seconds(reply.measurement.seconds);
}

Cost MeasuredCostEstimator::RecordInvalid(const Job& job, const std::string& reason, bool transient) {
  ++stats_.invalid;
  stats_.transient += transient ? 1 : 0;
  invalid_.push_back(
      InvalidCandidate{job.description, transient ? reason + " (transient, measured again next time)" : reason});
  if (database_ != nullptr) {
    CostRecord record;
    record.valid = false;
    record.transient = transient;
    record.reason = reason;
    record.description = job.description;
    database_->Store(job.key, record);
  }
  return Cost::Invalid();
}

ProgressBar::Display MeasuredCostEstimator::Display() const {
  return options_.show_progress ? ProgressBar::Display::kWhenTerminal : ProgressBar::Display::kNever;
}

void MeasuredCostEstimator::ReportProgress(std::string_view stage, size_t done, size_t total,
                                           std::string_view current) const {
  if (options_.on_progress) options_.on_progress(TuningProgress{std::string(stage), done, total, std::string(current)});
}

void MeasuredCostEstimator::CompileCodeGeneratorsInBatches(std::vector<Job>& pending, std::vector<bool>& done) {
  // Only a warm-up of the code generators' on-disk caches: a function that fails here is
  // compiled again, alone, by the worker, which then reports its own error.
  std::map<std::string, std::vector<size_t>> by_backend;
  for (size_t j = 0; j < pending.size(); ++j) {
    if (!done[j] && pending[j].backend->kind() == BackendKind::kCodeGenerator) {
      by_backend[pending[j].backend->name()].push_back(j);
    }
  }
  size_t total = 0;
  for (const auto& [name, jobs] : by_backend) total += jobs.size();
  if (total == 0) return;
  ProgressBar progress("compiling", total, std::cerr, Display());
  const CompileOptions compile_options{options_.threads, options_.cache_dir};
  for (const auto& [name, jobs] : by_backend) {
    const BackendPtr backend = registry_.Get(name);
    for (size_t first = 0; first < jobs.size(); first += kCompileBatch) {
      std::vector<Function> batch;
      for (size_t j = first; j < std::min(first + kCompileBatch, jobs.size()); ++j) {
        batch.push_back(pending[jobs[j]].function);
      }
      backend->CompileAll(batch, compile_options);
      progress.Advance(batch.size(), name);
      ReportProgress("compiling", progress.done(), total, name);
    }
  }
  progress.Finish();
}

void MeasuredCostEstimator::Prepare(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Job> pending;
  AlternativeCandidates alternatives;
  std::map<std::pair<std::string, std::string>, size_t> job_of_function;  // (hash, backend) -> pending index
  std::map<std::string, double> stated_speed;
  for (const CandidatePartition& candidate : candidates) {
    const Function function = TimedFunction(graph, candidate);
    if (function == nullptr) continue;
    ++stats_.candidates;
    const IndexSet& operators = candidate.sub_graph().inside();
    const std::string hash = HexHash(function);
    const auto [queued, added] = job_of_function.emplace(std::pair(hash, candidate.backend()), pending.size());
    if (!added) {
      alternatives.AddJob(operators, queued->second, stated_speed.at(candidate.backend()));
      continue;
    }
    if (const std::optional<Cost> known = memo_.Find(function, candidate.backend())) {
      job_of_function.erase(queued);
      alternatives.AddKnownCost(operators, *known);
      continue;
    }
    ++stats_.distinct;
    pending.push_back(MakeJob(candidate, function, hash));
    if (!stated_speed.count(candidate.backend())) {
      const BackendPerformance performance = pending.back().backend->Performance();
      stated_speed[candidate.backend()] = performance.peak_flops * performance.default_efficiency;
    }
    alternatives.AddJob(operators, queued->second, stated_speed.at(candidate.backend()));
  }
  std::vector<bool> done(pending.size(), false);
  std::vector<Cost> costs(pending.size(), Cost::Unknown());
  if (!pending.empty()) speed_.EnsureBaseline();
  for (size_t j = 0; j < pending.size(); ++j) {
    if (std::optional<Cost> cost = Recall(pending[j])) {
      costs[j] = *cost;
      done[j] = true;
    }
  }
  CompileCodeGeneratorsInBatches(pending, done);
  size_t to_measure = 0;
  for (bool is_done : done) to_measure += is_done ? 0 : 1;
  ProgressBar progress("measuring", to_measure, std::cerr, Display());
  std::vector<Timing> timings(pending.size());
  for (size_t j : alternatives.TimingOrder(pending.size())) {
    if (done[j]) continue;
    pending[j].dominated_above_seconds = alternatives.DominanceThreshold(j, costs);
    timings[j] = Time(pending[j]);
    ++stats_.measured;
    costs[j] = Record(pending[j], timings[j]);
    progress.Advance(1, pending[j].description);
    ReportProgress("measuring", progress.done(), to_measure, pending[j].description);
  }
  progress.Finish();
  // Busy is judged against the fastest probe of the whole tuning, so timings of a burst at
  // its start, which looked normal against the probes seen until then, are taken again too.
  std::vector<size_t> busy;
  for (size_t j = 0; j < pending.size(); ++j) {
    if (!done[j] && TakenWhileBusy(timings[j])) busy.push_back(j);
  }
  // Once the wait is used up, a timing is taken again only when a probe finds the machine calm:
  // on a machine that stays busy, a second busy timing would be no better than the first.
  for (size_t j : busy) {
    if (!speed_.WaitUntilCalm(busy_wait_left_)) {
      ++stats_.busy;
      continue;
    }
    ++stats_.retimed;
    timings[j] = Time(pending[j]);
    costs[j] = Record(pending[j], timings[j]);
    if (TakenWhileBusy(timings[j])) ++stats_.busy;
  }
  for (const Timing& timing : timings) stats_.dominated += timing.reply.measurement.dominated ? 1 : 0;
  for (size_t j = 0; j < pending.size(); ++j) memo_.Insert(pending[j].function, pending[j].key.backend, costs[j]);
  stats_.seconds += SecondsSince(start);
}

Cost MeasuredCostEstimator::Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) {
  const Function function = TimedFunction(graph, candidate);
  if (function == nullptr) return Cost::Zero();  // the host keeps it
  return memo_.Lookup(function, candidate.backend(), [&] {
    const auto start = std::chrono::steady_clock::now();
    ++stats_.candidates;
    ++stats_.distinct;
    const Job job = MakeJob(candidate, function, HexHash(function));
    speed_.EnsureBaseline();
    std::optional<Cost> cost = Recall(job);
    if (!cost) {
      Timing timing = Time(job);
      ++stats_.measured;
      if (TakenWhileBusy(timing) && speed_.WaitUntilCalm(busy_wait_left_)) {
        ++stats_.retimed;
        timing = Time(job);
      }
      cost = Record(job, timing);
      if (TakenWhileBusy(timing)) ++stats_.busy;
    }
    stats_.seconds += SecondsSince(start);
    return *cost;
  });
}

void MeasuredCostEstimator::Confirm(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) {
  const MeasurementOptions& method = options_.confirmation ? *options_.confirmation : options_.measurement;
  std::vector<Job> jobs;
  std::vector<Cost> fastest;
  std::set<std::pair<std::string, std::string>> seen;  // (hash, backend)
  for (const CandidatePartition& candidate : candidates) {
    const Function function = TimedFunction(graph, candidate);
    if (function == nullptr) continue;
    const std::string hash = HexHash(function);
    if (!seen.emplace(hash, candidate.backend()).second) continue;
    if (!Estimate(graph, candidate).IsKnown()) continue;
    Job job = MakeJob(candidate, function, hash);
    job.key.backend_version = CostVersion(*job.backend) + confirmation_suffix_;
    Cost stored = Cost::Unknown();
    if (database_ != nullptr) {
      const std::optional<CostRecord> record = database_->Lookup(job.key);
      if (record && record->valid && !record->transient) stored = Cost::Seconds(record->seconds);
    }
    jobs.push_back(std::move(job));
    fastest.push_back(stored);
  }
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < kConfirmRounds; ++round) {
    for (size_t j = 0; j < jobs.size(); ++j) {
      const Timing timing = Time(jobs[j], method);
      ++stats_.confirmed;
      if (!timing.reply.valid) continue;
      if (fastest[j].IsKnown() && timing.reply.measurement.seconds >= fastest[j].seconds()) continue;
      fastest[j] = Record(jobs[j], timing);
    }
  }
  for (size_t j = 0; j < jobs.size(); ++j) {
    if (fastest[j].IsKnown()) memo_.Insert(jobs[j].function, jobs[j].key.backend, fastest[j]);
  }
  stats_.seconds += SecondsSince(start);
}

}  // namespace collage
