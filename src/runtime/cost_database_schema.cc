#include "runtime/cost_database_schema.h"

#include <chrono>
#include <ostream>
#include <string>
#include <thread>

#include "support/error.h"

namespace collage {
namespace {

// As long as the connection's busy timeout.
constexpr int kWriteAheadLogSwitchMilliseconds = 30000;

// "ClgC": marks a file as a collage cost database.
constexpr int64_t kApplicationId = 0x436c6743;

constexpr const char* kCreateTables = R"(
CREATE TABLE costs (
  candidate_hash TEXT NOT NULL,
  backend TEXT NOT NULL,
  backend_version TEXT NOT NULL,
  device TEXT NOT NULL,
  threads INTEGER NOT NULL,
  valid INTEGER NOT NULL,
  reason TEXT NOT NULL,
  seconds REAL NOT NULL,
  median_seconds REAL NOT NULL,
  p10_seconds REAL NOT NULL,
  p90_seconds REAL NOT NULL,
  runs INTEGER NOT NULL,
  description TEXT NOT NULL,
  measured_at REAL NOT NULL,
  transient INTEGER NOT NULL DEFAULT 0,
  probe_seconds REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (candidate_hash, backend, backend_version, device, threads)
) WITHOUT ROWID;
CREATE TABLE device_values (
  device TEXT NOT NULL,
  name TEXT NOT NULL,
  value REAL NOT NULL,
  measured_at REAL NOT NULL,
  PRIMARY KEY (device, name)
) WITHOUT ROWID;
)";

// Schema 1 had no transient column: a time-out or a worker killed from outside was stored as
// an ordinary invalid record, and recalled for ever.
constexpr const char* kMigrateFromSchema1 = R"(
ALTER TABLE costs ADD COLUMN transient INTEGER NOT NULL DEFAULT 0;
UPDATE costs SET transient = 1 WHERE valid = 0 AND (reason LIKE 'timed out after %'
  OR reason LIKE '% died: killed by signal 9 %' OR reason LIKE '% died: killed by signal 15 %'
  OR reason LIKE '% died: killed by signal 2 %' OR reason LIKE '% died: killed by signal 1 %'
  OR reason LIKE '% died: killed by signal 3 %');
)";

// Schema 2 did not record how fast the machine was when a cost was measured.
constexpr const char* kMigrateFromSchema2 = R"(
ALTER TABLE costs ADD COLUMN probe_seconds REAL NOT NULL DEFAULT 0;
)";

// The migrations above lead from the oldest migrated schema to the newest.
constexpr int64_t kOldestMigratedSchema = 1;
constexpr int kNewestMigratedSchema = 3;

int64_t ReadInteger(const SqliteConnection& connection, const std::string& sql) {
  SqliteStatement statement = connection.Prepare(sql);
  return statement.Step() ? statement.Integer(0) : 0;
}

void CreateTables(SqliteConnection& connection, int schema_version) {
  connection.Execute(kCreateTables);
  connection.Execute("PRAGMA application_id = " + std::to_string(kApplicationId));
  connection.Execute("PRAGMA user_version = " + std::to_string(schema_version));
}

// Switching a new database to WAL takes an exclusive lock, and SQLite reports "database is
// locked" at once, without its busy handler, when another process is opening the same new file:
// so retry for as long as the busy timeout would have waited.
void SwitchToWriteAheadLog(SqliteConnection& connection) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWriteAheadLogSwitchMilliseconds);
  while (true) {
    std::string mode;
    try {
      SqliteStatement journal_mode = connection.Prepare("PRAGMA journal_mode = WAL");
      mode = journal_mode.Step() ? journal_mode.Text(0) : "";
    } catch (const Error&) {
      if (std::chrono::steady_clock::now() > deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    if (mode == "wal") return;
    throw Error("database '" + connection.path() + "': cannot switch to WAL journal mode (got '" + mode + "')");
  }
}

}  // namespace

int PrepareCostDatabaseSchema(SqliteConnection& connection, int schema_version, std::ostream& messages) {
  // Reading the header first reports a file that is not a database before anything is written.
  ReadInteger(connection, "PRAGMA user_version");
  SwitchToWriteAheadLog(connection);

  SqliteTransaction transaction(connection);
  const int64_t application_id = ReadInteger(connection, "PRAGMA application_id");
  const int64_t found_version = ReadInteger(connection, "PRAGMA user_version");
  if (application_id == kApplicationId && found_version == schema_version) return schema_version;
  if (application_id == kApplicationId && found_version > schema_version) {
    throw Error("database '" + connection.path() + "' has cost schema version " + std::to_string(found_version) +
                ", newer than this collage's " + std::to_string(schema_version) +
                ": use a newer collage or another --db");
  }
  if (application_id == kApplicationId && found_version >= kOldestMigratedSchema &&
      schema_version == kNewestMigratedSchema) {
    std::string changes;
    if (found_version < 2) {
      connection.Execute(kMigrateFromSchema1);
      const int64_t transient = ReadInteger(connection, "SELECT count(*) FROM costs WHERE transient = 1");
      changes += "; " + std::to_string(transient) + " failed measurements marked transient, to be measured again";
    }
    connection.Execute(kMigrateFromSchema2);
    connection.Execute("PRAGMA user_version = " + std::to_string(schema_version));
    transaction.Commit();
    messages << "collage: cost database '" << connection.path() << "' migrated from schema version " << found_version
             << " to " << schema_version << changes << "\n";
    return schema_version;
  }
  if (application_id == kApplicationId) {
    connection.Execute("DROP TABLE IF EXISTS costs; DROP TABLE IF EXISTS device_values;");
    CreateTables(connection, schema_version);
    transaction.Commit();
    messages << "collage: cost database '" << connection.path() << "' had schema version " << found_version
             << "; recreated empty at version " << schema_version << "\n";
    return schema_version;
  }
  if (ReadInteger(connection, "SELECT count(*) FROM sqlite_schema") != 0) {
    throw Error("database '" + connection.path() + "' is not a collage cost database (it holds other tables)");
  }
  CreateTables(connection, schema_version);
  transaction.Commit();
  return schema_version;
}

}  // namespace collage
