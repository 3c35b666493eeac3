// The measured-cost database CompileOptions::database_path names (DefaultCostDatabase() for
// ""): what is in it, clearing it, exporting it, as the tool's `collage db` does. Opening a
// database that is not one, or of a newer schema, is a UsageError naming the file.
#pragma once

#include <cstddef>
#include <map>
#include <ostream>
#include <string>

namespace collage::api {

struct CostDatabaseStats {
  std::string path;
  int schema_version = 0;
  size_t file_bytes = 0;   // the database file and its write-ahead log
  size_t entries = 0;      // cost records
  size_t invalid = 0;      // of which invalid
  size_t transient = 0;    // of which invalid for a passing reason (measured again by the next tuning)
  std::map<std::string, size_t> per_backend;  // cost records per backend
  size_t device_values = 0;
};

CostDatabaseStats ReadCostDatabaseStats(const std::string& path);

struct ClearedCosts {
  std::string path;
  size_t entries = 0;        // cost records removed
  size_t device_values = 0;  // device values removed
};

// Deletes every cost record and device value.
ClearedCosts ClearCostDatabase(const std::string& path);

// A CSV header and one row per cost record with every key and record field, ordered by key.
void ExportCostDatabase(const std::string& path, std::ostream& csv);

}  // namespace collage::api
