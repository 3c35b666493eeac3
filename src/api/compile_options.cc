#include "collage/compile_options.h"

#include <cstdlib>
#include <limits>

#include "api/error_translation.h"
#include "api/option_conversion.h"
#include "collage/error.h"
#include "backend/backend.h"
#include "pipeline/request_checks.h"
#include "runtime/cost_database.h"

namespace collage::api {

collage::CostModel ToLibraryCostModel(CostModel cost) {
  return cost == CostModel::kMeasured ? collage::CostModel::kMeasured : collage::CostModel::kAnalytic;
}

CostModel FromLibraryCostModel(collage::CostModel cost) {
  return cost == collage::CostModel::kMeasured ? CostModel::kMeasured : CostModel::kAnalytic;
}

collage::SearchLevel ToLibrarySearchLevel(SearchLevel search) {
  return search == SearchLevel::kGraph ? collage::SearchLevel::kGraph : collage::SearchLevel::kOp;
}

PrecisionMode ToLibraryPrecision(Precision precision) {
  return precision == Precision::kAuto ? PrecisionMode::kAuto : PrecisionMode::kFp32;
}

collage::AccuracyMetric ToLibraryMetric(AccuracyMetric metric) {
  switch (metric) {
    case AccuracyMetric::kTop1: return collage::AccuracyMetric::kTop1;
    case AccuracyMetric::kMaxRelative: return collage::AccuracyMetric::kMaxRelative;
    case AccuracyMetric::kRelativeL2: break;
  }
  return collage::AccuracyMetric::kRelativeL2;
}

AccuracyMetric FromLibraryMetric(collage::AccuracyMetric metric) {
  switch (metric) {
    case collage::AccuracyMetric::kTop1: return AccuracyMetric::kTop1;
    case collage::AccuracyMetric::kMaxRelative: return AccuracyMetric::kMaxRelative;
    case collage::AccuracyMetric::kRelativeL2: break;
  }
  return AccuracyMetric::kRelativeL2;
}

std::vector<std::string> AvailableBackends() { return BackendRegistry::Global().Names(); }

std::string DefaultCostDatabase() {
  return Translating<UsageError>([] { return CostDatabase::DefaultPath(); });
}

void CheckCompileOptions(const CompileOptions& options) {
  const collage::CostModel cost = ToLibraryCostModel(options.cost);
  const collage::SearchLevel search = ToLibrarySearchLevel(options.search);
  CheckBackendNames(options.backends.empty() ? AvailableBackends() : options.backends);
  CheckThreads(options.threads);
  CheckCostOptions(cost, search, !options.database_path.empty());
  CheckTolerance(options.tolerance);
  CheckPrecisionOptions(ToLibraryPrecision(options.precision), cost);
  if (!(options.graph_budget_seconds > 0)) {
    throw UsageError("the graph budget must be a positive number of seconds, got " +
                     std::to_string(options.graph_budget_seconds));
  }
}

std::string_view CostModelName(CostModel cost) { return collage::CostModelName(ToLibraryCostModel(cost)); }

std::optional<CostModel> ParseCostModel(std::string_view name) {
  const std::optional<collage::CostModel> cost = collage::ParseCostModel(name);
  if (!cost) return std::nullopt;
  return FromLibraryCostModel(*cost);
}

std::optional<SearchLevel> ParseSearchLevel(std::string_view name) {
  const std::optional<collage::SearchLevel> search = collage::ParseSearchLevel(name);
  if (!search) return std::nullopt;
  return *search == collage::SearchLevel::kGraph ? SearchLevel::kGraph : SearchLevel::kOp;
}

std::optional<Precision> ParsePrecision(std::string_view name) {
  const std::optional<PrecisionMode> mode = ParsePrecisionMode(name);
  if (!mode) return std::nullopt;
  return *mode == PrecisionMode::kAuto ? Precision::kAuto : Precision::kFp32;
}

std::string_view AccuracyMetricName(AccuracyMetric metric) {
  return collage::AccuracyMetricName(ToLibraryMetric(metric));
}

std::optional<AccuracyMetric> ParseAccuracyMetric(std::string_view name) {
  const std::optional<collage::AccuracyMetric> metric = collage::ParseAccuracyMetric(name);
  if (!metric) return std::nullopt;
  return FromLibraryMetric(*metric);
}

double ParseTolerance(const std::string& text) {
  char* end = nullptr;
  double tolerance = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') tolerance = std::numeric_limits<double>::quiet_NaN();
  CheckTolerance(tolerance, text);
  return tolerance;
}

int HardwareThreads() { return static_cast<int>(collage::HardwareThreads()); }

int ThreadsPerHardwareThread() { return static_cast<int>(kThreadsPerHardwareThread); }

int MostThreads() { return static_cast<int>(collage::MostThreads()); }

std::string ThreadsBoundReason() { return collage::ThreadsBoundReason(); }

}  // namespace collage::api
