#include "collage/cost_database.h"

#include "api/error_translation.h"
#include "runtime/cost_database.h"

namespace collage::api {

CostDatabaseStats ReadCostDatabaseStats(const std::string& path) {
  return Translating<UsageError>([&] {
    CostDatabase::Stats stats = CostDatabase::Open(path).GetStats();
    return CostDatabaseStats{.path = std::move(stats.path),
                             .schema_version = stats.schema_version,
                             .file_bytes = stats.file_bytes,
                             .entries = stats.entries,
                             .invalid = stats.invalid,
                             .transient = stats.transient,
                             .per_backend = std::move(stats.per_backend),
                             .device_values = stats.device_values};
  });
}

ClearedCosts ClearCostDatabase(const std::string& path) {
  return Translating<UsageError>([&] {
    CostDatabase database = CostDatabase::Open(path);
    const size_t device_values = database.GetStats().device_values;
    const size_t entries = database.Clear();
    return ClearedCosts{database.path(), entries, device_values};
  });
}

void ExportCostDatabase(const std::string& path, std::ostream& csv) {
  Translating<UsageError>([&] { CostDatabase::Open(path).ExportCsv(csv); });
}

}  // namespace collage::api
