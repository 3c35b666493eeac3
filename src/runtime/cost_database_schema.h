// The tables of the cost database and how a file is brought to the current schema. The
// file is marked as a collage cost database by PRAGMA application_id and versioned by PRAGMA
// user_version.
#pragma once

#include <iosfwd>
#include <string_view>

#include "runtime/sqlite_connection.h"

namespace collage {

// The cost table's columns in the order Store binds them and Lookup and ExportCsv read them:
// the five key columns, then the record's.
inline constexpr std::string_view kCostKeyColumns = "candidate_hash, backend, backend_version, device, threads";
inline constexpr std::string_view kCostRecordColumns =
    "valid, reason, seconds, median_seconds, p10_seconds, p90_seconds, runs, description, measured_at, transient, "
    "probe_seconds";

// Sets WAL mode and, in one write transaction, creates the tables of a new file, migrates
// those of schema 1 (adding the transient column, set for the invalid records whose reason is a
// time-out or a worker killed by SIGKILL, SIGTERM, SIGINT, SIGHUP or SIGQUIT) and of schema 2
// (adding the probe_seconds column, 0: not known), recreates those of an older schema, telling
// `messages` what it did; or throws Error for a newer schema or a database of something else.
// Returns the schema version now in the file.
int PrepareCostDatabaseSchema(SqliteConnection& connection, int schema_version, std::ostream& messages);

}  // namespace collage
