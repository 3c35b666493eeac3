#include "pipeline/partition_report_writer.h"

#include <chrono>
#include <sstream>

#include "backend/backend.h"
#include "interpreter/interpreter.h"
#include "pipeline/text_file.h"
#include "report/html_report.h"
#include "runtime/executor.h"

namespace collage {
namespace {

constexpr size_t kWarmUpRuns = 3;
constexpr size_t kTimedRuns = 10;
constexpr uint64_t kInputSeed = 0;

void MeasurePlacement(PlacementReport& report, const Module& partitioned) {
  ExecutorOptions options;
  options.compile.threads = static_cast<int>(report.threads);
  options.profile = true;
  Executor executor(partitioned, BackendRegistry::Global(), options);
  const std::vector<Value> arguments = RandomArguments(partitioned.main(), kInputSeed);
  for (size_t run = 0; run < kWarmUpRuns; ++run) executor.Run(arguments);
  executor.ClearProfile();
  std::vector<double> run_ms;
  for (size_t run = 0; run < kTimedRuns; ++run) {
    const auto start = std::chrono::steady_clock::now();
    executor.Run(arguments);
    run_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  AddMeasurements(report, executor.profiler()->Rows(), Median(run_ms), kTimedRuns);
}

}  // namespace

void WritePartitionReport(const std::string& path, PlacementReport report, const Module& partitioned) {
  MeasurePlacement(report, partitioned);
  WriteTextFile(path, RenderPlacementReport(report));
}

void SetReportPrecisions(PlacementReport& report, const Plan& plan) {
  for (ReportPartition& partition : report.partitions) {
    for (const PlannedPartition& planned : plan.partitions) {
      if (planned.symbol == partition.symbol) partition.precision = DTypeName(planned.precision);
    }
  }
  const PlanPrecision& precision = plan.precision;
  if (precision.mode == PrecisionMode::kFp32 || !HasReducedPrecision(plan)) return;
  std::ostringstream text;
  text << "auto: " << AccuracyMetricName(precision.metric) << " " << precision.calibration_error
       << " on the calibration inputs, " << precision.check_error << " on disjoint inputs, tolerance "
       << precision.tolerance << "; " << ReducedPartitionCount(plan) << " reduced partitions";
  report.precision = text.str();
}

}  // namespace collage
