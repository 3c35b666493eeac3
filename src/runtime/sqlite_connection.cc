#include "runtime/sqlite_connection.h"

#include <sqlite3.h>

#include <utility>

#include "support/error.h"

namespace collage {

void CheckSqlite(sqlite3* handle, const std::string& path, int status, std::string_view doing) {
  if (status == SQLITE_OK || status == SQLITE_ROW || status == SQLITE_DONE) return;
  const char* message =
      handle != nullptr && sqlite3_errcode(handle) != SQLITE_OK ? sqlite3_errmsg(handle) : sqlite3_errstr(status);
  throw Error("database '" + path + "': " + std::string(doing) + ": " + message);
}

SqliteStatement::SqliteStatement(std::string path, sqlite3_stmt* statement)
    : path_(std::move(path)), statement_(statement) {}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : path_(std::move(other.path_)), statement_(std::exchange(other.statement_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(statement_);
    path_ = std::move(other.path_);
    statement_ = std::exchange(other.statement_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

void SqliteStatement::Check(int status, std::string_view doing) const {
  if (status == SQLITE_OK || status == SQLITE_ROW || status == SQLITE_DONE) return;
  CheckSqlite(sqlite3_db_handle(statement_), path_, status, std::string(doing) + " '" + sqlite3_sql(statement_) + "'");
}

SqliteStatement& SqliteStatement::Bind(int index, std::string_view text) {
  Check(sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT),
        "binding a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, int64_t value) {
  Check(sqlite3_bind_int64(statement_, index, value), "binding a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, double value) {
  Check(sqlite3_bind_double(statement_, index, value), "binding a parameter");
  return *this;
}

bool SqliteStatement::Step() {
  const int status = sqlite3_step(statement_);
  if (status == SQLITE_ROW) return true;
  if (status == SQLITE_DONE) return false;
  // The error code of a failed step is also returned by reset; reset so the statement can run again.
  sqlite3_reset(statement_);
  Check(status, "running a statement");
  return false;
}

void SqliteStatement::Run() {
  while (Step()) {
  }
  Reset();
}

void SqliteStatement::Reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int SqliteStatement::ColumnCount() const { return sqlite3_column_count(statement_); }

std::string SqliteStatement::ColumnName(int column) const { return sqlite3_column_name(statement_, column); }

SqliteStatement::Type SqliteStatement::ColumnType(int column) const {
  switch (sqlite3_column_type(statement_, column)) {
    case SQLITE_INTEGER:
      return Type::kInteger;
    case SQLITE_FLOAT:
      return Type::kReal;
    case SQLITE_TEXT:
      return Type::kText;
    case SQLITE_BLOB:
      return Type::kBlob;
    default:
      return Type::kNull;
  }
}

std::string SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
}

int64_t SqliteStatement::Integer(int column) const { return sqlite3_column_int64(statement_, column); }

double SqliteStatement::Real(int column) const { return sqlite3_column_double(statement_, column); }

void SqliteConnection::Closer::operator()(sqlite3* handle) const { sqlite3_close_v2(handle); }

SqliteConnection::SqliteConnection(std::string path, sqlite3* handle) : path_(std::move(path)), handle_(handle) {}

SqliteConnection SqliteConnection::Open(const std::string& path) {
  sqlite3* handle = nullptr;
  const int status =
      sqlite3_open_v2(path.c_str(), &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  SqliteConnection connection(path, handle);  // owns the handle even when opening failed
  if (handle == nullptr) throw Error("database '" + path + "': cannot open: out of memory");
  CheckSqlite(handle, path, status, "cannot open");
  sqlite3_extended_result_codes(handle, 1);
  return connection;
}

void SqliteConnection::Execute(std::string_view sql) {
  const std::string statements(sql);
  CheckSqlite(handle_.get(), path_, sqlite3_exec(handle_.get(), statements.c_str(), nullptr, nullptr, nullptr),
              "running '" + statements + "'");
}

SqliteStatement SqliteConnection::Prepare(std::string_view sql) const {
  sqlite3_stmt* statement = nullptr;
  const int status = sqlite3_prepare_v3(handle_.get(), sql.data(), static_cast<int>(sql.size()),
                                        SQLITE_PREPARE_PERSISTENT, &statement, nullptr);
  SqliteStatement prepared(path_, statement);
  CheckSqlite(handle_.get(), path_, status, "preparing '" + std::string(sql) + "'");
  return prepared;
}

void SqliteConnection::SetBusyTimeout(int milliseconds) {
  CheckSqlite(handle_.get(), path_, sqlite3_busy_timeout(handle_.get(), milliseconds), "setting the busy timeout");
}

int64_t SqliteConnection::Changes() const { return sqlite3_changes64(handle_.get()); }

SqliteTransaction::SqliteTransaction(SqliteConnection& connection) : connection_(connection) {
  connection_.Execute("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
  if (!open_) return;
  try {
    connection_.Execute("ROLLBACK");
  } catch (const Error&) {
    // SQLite has already rolled back a transaction whose statement failed that way.
  }
}

void SqliteTransaction::Commit() {
  connection_.Execute("COMMIT");
  open_ = false;
}

}  // namespace collage
