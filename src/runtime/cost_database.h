// The persistent database of measured costs: one SQLite file, by
// default under the user's cache folder, shared by every tuner on the machine.
//
// A cost is keyed by what determines it: the candidate's structural hash, the backend and its
// version, the device fingerprint and the thread count; a change in any of them is a miss.
// Invariants: the file is in WAL mode with a 30 s busy timeout, so several processes may
// read and store at once; StoreAll is one transaction; every failure (including a file that
// is not a database, or one with a newer schema) is an Error naming the file.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collage {

struct CostKey {
  std::string candidate_hash;   // structural hash of the candidate function, as hex (the caller computes it)
  std::string backend;          // backend name
  // Backend::version(), with the measurement method in parentheses when the timing was not
  // back to back (tuning/measurement.h MeasurementMethod), so differently taken timings never mix
  std::string backend_version;
  std::string device;           // DeviceFingerprint()
  int threads = 1;
};

struct CostRecord {
  bool valid = true;   // false: the backend could not compile/run it, or it timed out
  std::string reason;  // why invalid ("timed out after 10 s", the compile error, ...)
  // Invalid for a passing reason (a time-out, the worker killed from outside): kept for the
  // record, but a tuner measures the candidate again rather than recalling it.
  bool transient = false;
  double seconds = 0;  // the cost the search uses (the configured percentile of the runs, usually the median)
  double median_seconds = 0;
  double p10_seconds = 0, p90_seconds = 0;  // spread
  int runs = 0;
  std::string description;  // human-readable: "onednn: nn.conv2d+nn.relu 1x64x56x56"
  // The faster of the speed probes timed around the measurement (tuning/machine_speed.h): how
  // fast the machine was then. 0: not known (taken without probes, or before schema 3).
  double probe_seconds = 0;
  double measured_at = 0;   // unix time (set by Store when 0)
};

class CostDatabase {
 public:
  // The schema this code reads and writes (PRAGMA user_version). 2 added the transient
  // column, 3 the probe_seconds column.
  static constexpr int kSchemaVersion = 3;

  // Opens the database at `path`, creating the file, its parent folders and the schema when
  // missing. A database of schema 1 is migrated in place (cost_database_schema.h); one of an
  // older schema is recreated (its costs are dropped); either with a line on `messages`.
  // Throws Error for a newer schema, a file that is not a collage cost database, or any
  // SQLite failure.
  static CostDatabase Open(const std::string& path, std::ostream& messages);
  static CostDatabase Open(const std::string& path);  // messages on std::cerr
  // $COLLAGE_COST_DB, else $XDG_CACHE_HOME/collage/costs.sqlite, else
  // $HOME/.cache/collage/costs.sqlite, else costs.sqlite in the user's private temporary
  // cache folder (support/private_directory.h; an Error when that folder is not private).
  static std::string DefaultPath();

  CostDatabase(CostDatabase&& other) noexcept;
  CostDatabase& operator=(CostDatabase&& other) noexcept;
  CostDatabase(const CostDatabase&) = delete;
  CostDatabase& operator=(const CostDatabase&) = delete;
  ~CostDatabase();

  std::optional<CostRecord> Lookup(const CostKey& key);
  // Inserts or replaces the record of `key`.
  void Store(const CostKey& key, const CostRecord& record);
  // Stores every record in one transaction: all of them or none.
  void StoreAll(const std::vector<std::pair<CostKey, CostRecord>>& records);

  struct Stats {
    std::string path;
    int schema_version = 0;
    size_t file_bytes = 0;  // the database file and its write-ahead log
    size_t entries = 0;     // cost records
    size_t invalid = 0;     // of which invalid
    size_t transient = 0;   // of which invalid for a passing reason (measured again next time)
    std::map<std::string, size_t> per_backend;
    size_t device_values = 0;
  };
  Stats GetStats();
  // Deletes every cost record and device value; returns how many cost records there were.
  size_t Clear();
  // A CSV header and one row per cost record with every key and record field, ordered by key.
  void ExportCsv(std::ostream& out);
  // SQLite's PRAGMA integrity_check: "ok", or the problems it found, one per line.
  std::string CheckIntegrity();

  // Named device-level measurements (e.g. memory bandwidth in bytes per second).
  std::optional<double> LookupDeviceValue(const std::string& device, const std::string& name);
  void StoreDeviceValue(const std::string& device, const std::string& name, double value);

  const std::string& path() const;

 private:
  struct State;
  explicit CostDatabase(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace collage
