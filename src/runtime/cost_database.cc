#include "runtime/cost_database.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "runtime/cost_database_schema.h"
#include "runtime/sqlite_connection.h"
#include "support/csv.h"
#include "support/error.h"
#include "support/private_directory.h"

namespace collage {
namespace {

constexpr int kBusyTimeoutMilliseconds = 30'000;

template <typename... Parts>
std::string Sql(const Parts&... parts) {
  std::string text;
  (text.append(std::string_view(parts)), ...);
  return text;
}

double UnixTimeNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string EnvironmentValue(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// Binds the key to parameters 1..5.
void BindKey(SqliteStatement& statement, const CostKey& key) {
  statement.Bind(1, key.candidate_hash)
      .Bind(2, key.backend)
      .Bind(3, key.backend_version)
      .Bind(4, key.device)
      .Bind(5, int64_t{key.threads});
}

// Binds the record to parameters 6..16, in the order of kCostRecordColumns.
void BindRecord(SqliteStatement& statement, const CostRecord& record) {
  statement.Bind(6, int64_t{record.valid})
      .Bind(7, record.reason)
      .Bind(8, record.seconds)
      .Bind(9, record.median_seconds)
      .Bind(10, record.p10_seconds)
      .Bind(11, record.p90_seconds)
      .Bind(12, int64_t{record.runs})
      .Bind(13, record.description)
      .Bind(14, record.measured_at != 0 ? record.measured_at : UnixTimeNow())
      .Bind(15, int64_t{record.transient})
      .Bind(16, record.probe_seconds);
}

// Reads the columns of kCostRecordColumns.
CostRecord ReadRecord(const SqliteStatement& statement) {
  CostRecord record;
  record.valid = statement.Integer(0) != 0;
  record.reason = statement.Text(1);
  record.seconds = statement.Real(2);
  record.median_seconds = statement.Real(3);
  record.p10_seconds = statement.Real(4);
  record.p90_seconds = statement.Real(5);
  record.runs = static_cast<int>(statement.Integer(6));
  record.description = statement.Text(7);
  record.measured_at = statement.Real(8);
  record.transient = statement.Integer(9) != 0;
  record.probe_seconds = statement.Real(10);
  return record;
}

std::string CsvCell(const SqliteStatement& statement, int column) {
  switch (statement.ColumnType(column)) {
    case SqliteStatement::Type::kInteger:
      return std::to_string(statement.Integer(column));
    case SqliteStatement::Type::kReal:
      return CsvNumber(statement.Real(column));
    default:
      return CsvField(statement.Text(column));
  }
}

}  // namespace

struct CostDatabase::State {
  explicit State(SqliteConnection opened)
      : connection(std::move(opened)),
        lookup(connection.Prepare(Sql("SELECT ", kCostRecordColumns,
                                      " FROM costs WHERE candidate_hash = ?1 AND backend = ?2 AND "
                                      "backend_version = ?3 AND device = ?4 AND threads = ?5"))),
        store(connection.Prepare(Sql("INSERT OR REPLACE INTO costs (", kCostKeyColumns, ", ", kCostRecordColumns,
                                     ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"))),
        lookup_device_value(connection.Prepare("SELECT value FROM device_values WHERE device = ?1 AND name = ?2")),
        store_device_value(connection.Prepare(
            "INSERT OR REPLACE INTO device_values (device, name, value, measured_at) VALUES (?1, ?2, ?3, ?4)")) {}

  // Runs the store statement for one record (within whatever transaction is open).
  void StoreOne(const CostKey& key, const CostRecord& record) {
    BindKey(store, key);
    BindRecord(store, record);
    store.Run();
  }

  int64_t Count(const std::string& sql) {
    SqliteStatement statement = connection.Prepare(sql);
    return statement.Step() ? statement.Integer(0) : 0;
  }

  SqliteConnection connection;
  SqliteStatement lookup;
  SqliteStatement store;
  SqliteStatement lookup_device_value;
  SqliteStatement store_device_value;
};

CostDatabase::CostDatabase(std::unique_ptr<State> state) : state_(std::move(state)) {}
CostDatabase::CostDatabase(CostDatabase&& other) noexcept = default;
CostDatabase& CostDatabase::operator=(CostDatabase&& other) noexcept = default;
CostDatabase::~CostDatabase() = default;

CostDatabase CostDatabase::Open(const std::string& path) { return Open(path, std::cerr); }

CostDatabase CostDatabase::Open(const std::string& path, std::ostream& messages) {
  Check(!path.empty(), "the cost database path is empty");
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code error;
    std::filesystem::create_directories(parent, error);
    if (error) throw Error("database '" + path + "': cannot create its folder: " + error.message());
  }
  SqliteConnection connection = SqliteConnection::Open(path);
  connection.SetBusyTimeout(kBusyTimeoutMilliseconds);
  // With WAL, NORMAL never corrupts the file; a power cut may lose the last commits, which
  // for a cache of measurements only means measuring them again.
  connection.Execute("PRAGMA synchronous = NORMAL");
  PrepareCostDatabaseSchema(connection, kSchemaVersion, messages);
  return CostDatabase(std::make_unique<State>(std::move(connection)));
}

std::string CostDatabase::DefaultPath() {
  if (std::string path = EnvironmentValue("COLLAGE_COST_DB"); !path.empty()) return path;
  // The XDG base-directory specification ignores relative paths.
  if (std::string cache = EnvironmentValue("XDG_CACHE_HOME"); !cache.empty() && cache.front() == '/') {
    return cache + "/collage/costs.sqlite";
  }
  if (std::string home = EnvironmentValue("HOME"); !home.empty()) return home + "/.cache/collage/costs.sqlite";
  return PrivateTemporaryCacheDirectory() + "/costs.sqlite";
}

const std::string& CostDatabase::path() const { return state_->connection.path(); }

std::optional<CostRecord> CostDatabase::Lookup(const CostKey& key) {
  SqliteStatement& lookup = state_->lookup;
  BindKey(lookup, key);
  std::optional<CostRecord> record;
  if (lookup.Step()) record = ReadRecord(lookup);
  lookup.Reset();
  return record;
}

void CostDatabase::Store(const CostKey& key, const CostRecord& record) { state_->StoreOne(key, record); }

void CostDatabase::StoreAll(const std::vector<std::pair<CostKey, CostRecord>>& records) {
  SqliteTransaction transaction(state_->connection);
  for (const auto& [key, record] : records) state_->StoreOne(key, record);
  transaction.Commit();
}

CostDatabase::Stats CostDatabase::GetStats() {
  Stats stats;
  stats.path = path();
  stats.schema_version = static_cast<int>(state_->Count("PRAGMA user_version"));
  for (const std::string& file : {path(), path() + "-wal"}) {
    std::error_code missing;
    const uintmax_t bytes = std::filesystem::file_size(file, missing);
    if (!missing) stats.file_bytes += static_cast<size_t>(bytes);
  }
  SqliteStatement per_backend = state_->connection.Prepare(
      "SELECT backend, count(*), sum(valid = 0), sum(transient) FROM costs GROUP BY backend ORDER BY backend");
  while (per_backend.Step()) {
    const size_t entries = static_cast<size_t>(per_backend.Integer(1));
    stats.per_backend[per_backend.Text(0)] = entries;
    stats.entries += entries;
    stats.invalid += static_cast<size_t>(per_backend.Integer(2));
    stats.transient += static_cast<size_t>(per_backend.Integer(3));
  }
  stats.device_values = static_cast<size_t>(state_->Count("SELECT count(*) FROM device_values"));
  return stats;
}

size_t CostDatabase::Clear() {
  SqliteTransaction transaction(state_->connection);
  state_->connection.Execute("DELETE FROM costs");
  const size_t removed = static_cast<size_t>(state_->connection.Changes());
  state_->connection.Execute("DELETE FROM device_values");
  transaction.Commit();
  return removed;
}

void CostDatabase::ExportCsv(std::ostream& out) {
  SqliteStatement rows = state_->connection.Prepare(
      Sql("SELECT ", kCostKeyColumns, ", ", kCostRecordColumns, " FROM costs ORDER BY ", kCostKeyColumns));
  for (int column = 0; column < rows.ColumnCount(); ++column) out << (column ? "," : "") << rows.ColumnName(column);
  out << "\n";
  while (rows.Step()) {
    for (int column = 0; column < rows.ColumnCount(); ++column) out << (column ? "," : "") << CsvCell(rows, column);
    out << "\n";
  }
}

std::string CostDatabase::CheckIntegrity() {
  SqliteStatement check = state_->connection.Prepare("PRAGMA integrity_check");
  std::string result;
  while (check.Step()) result += (result.empty() ? "" : "\n") + check.Text(0);
  return result;
}

std::optional<double> CostDatabase::LookupDeviceValue(const std::string& device, const std::string& name) {
  SqliteStatement& lookup = state_->lookup_device_value;
  lookup.Bind(1, device).Bind(2, name);
  std::optional<double> value;
  if (lookup.Step()) value = lookup.Real(0);
  lookup.Reset();
  return value;
}

void CostDatabase::StoreDeviceValue(const std::string& device, const std::string& name, double value) {
  state_->store_device_value.Bind(1, device).Bind(2, name).Bind(3, value).Bind(4, UnixTimeNow());
  state_->store_device_value.Run();
}

}  // namespace collage
