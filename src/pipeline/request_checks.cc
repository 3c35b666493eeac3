#include "pipeline/request_checks.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "backend/backend.h"
#include "collage/error.h"

namespace collage {

uint64_t HardwareThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

uint64_t MostThreads() { return kThreadsPerHardwareThread * HardwareThreads(); }

std::string ThreadsBoundReason() {
  return "at most " + std::to_string(kThreadsPerHardwareThread) + " per hardware thread; this machine has " +
         std::to_string(HardwareThreads());
}

void CheckThreads(int64_t threads) {
  if (threads < 1 || static_cast<uint64_t>(threads) > MostThreads()) {
    throw UsageError("--threads expects an integer in [1, " + std::to_string(MostThreads()) + "] (" +
                     ThreadsBoundReason() + "), got '" + std::to_string(threads) + "'");
  }
}

void CheckBackendNames(const std::vector<std::string>& names) {
  const BackendRegistry& registry = BackendRegistry::Global();
  std::string available;
  for (const std::string& name : registry.Names()) available += (available.empty() ? "" : ", ") + name;
  if (names.empty()) throw UsageError("no backends given (available: " + available + ")");
  for (size_t i = 0; i < names.size(); ++i) {
    if (!registry.Find(names[i])) {
      throw UsageError("unknown backend '" + names[i] + "' (available: " + available + ")");
    }
    if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i) {
      throw UsageError("backend '" + names[i] + "' listed twice in --backends");
    }
  }
}

void CheckTolerance(double tolerance, const std::string& text) {
  if (!(tolerance > 0 && tolerance <= 1e6)) throw UsageError("--tolerance expects a number in (0, 1000000], got '" + text + "'");
}

void CheckTolerance(double tolerance) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", tolerance);
  CheckTolerance(tolerance, text);
}

void CheckPrecisionOptions(PrecisionMode mode, CostModel cost_model) {
  if (mode != PrecisionMode::kAuto) return;
  if (cost_model != CostModel::kMeasured) {
    throw UsageError("--precision auto chooses precisions by measured cost: it needs --cost measured");
  }
}

void CheckCostOptions(CostModel cost_model, SearchLevel search, bool database_given) {
  if (database_given && cost_model != CostModel::kMeasured) {
    throw UsageError("--db (the measured-cost database) needs --cost measured");
  }
  if (search == SearchLevel::kGraph && cost_model != CostModel::kMeasured) {
    throw UsageError("--search graph measures whole-model latency: it needs --cost measured");
  }
}

}  // namespace collage
