// One open SQLite connection (RAII) and its prepared statements, with every failure turned
// into a collage Error that names the database file and carries SQLite's message.
// Invariants: a SqliteConnection always holds an open handle (until moved from); a
// SqliteStatement belongs to one connection and must not outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace collage {

// Throws Error "database 'PATH': <doing>: <SQLite's message>" unless `status` is a success
// code (OK, ROW, DONE). `handle` may be null; then SQLite's text for the code is used.
void CheckSqlite(sqlite3* handle, const std::string& path, int status, std::string_view doing);

// A prepared statement: bind parameters (1-based), step through rows, read columns
// (0-based), Reset to run it again. Reset also clears the bindings.
class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  SqliteStatement& Bind(int index, std::string_view text);
  SqliteStatement& Bind(int index, int64_t value);
  SqliteStatement& Bind(int index, double value);

  // true: a row is available; false: the statement is done. Throws Error on failure.
  bool Step();
  // Steps a statement that returns no rows (or whose rows are not needed).
  void Run();
  void Reset();

  enum class Type { kInteger, kReal, kText, kBlob, kNull };
  int ColumnCount() const;
  std::string ColumnName(int column) const;
  Type ColumnType(int column) const;
  std::string Text(int column) const;
  int64_t Integer(int column) const;
  double Real(int column) const;

 private:
  friend class SqliteConnection;
  SqliteStatement(std::string path, sqlite3_stmt* statement);
  void Check(int status, std::string_view doing) const;

  std::string path_;  // the database's, for error messages
  sqlite3_stmt* statement_;
};

class SqliteConnection {
 public:
  // Opens (creating when missing) the database file at `path`. SQLite reads the file
  // lazily, so a file that is not a database is reported by the first statement.
  static SqliteConnection Open(const std::string& path);

  SqliteConnection(SqliteConnection&& other) noexcept = default;
  SqliteConnection& operator=(SqliteConnection&& other) noexcept = default;
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  // Runs one or more statements that return nothing.
  void Execute(std::string_view sql);
  SqliteStatement Prepare(std::string_view sql) const;
  // How long a statement waits for another connection's lock before failing.
  void SetBusyTimeout(int milliseconds);
  // Rows changed by the last INSERT, UPDATE or DELETE.
  int64_t Changes() const;

  const std::string& path() const { return path_; }

 private:
  struct Closer {
    void operator()(sqlite3* handle) const;
  };
  SqliteConnection(std::string path, sqlite3* handle);

  std::string path_;
  std::unique_ptr<sqlite3, Closer> handle_;
};

// A write transaction (BEGIN IMMEDIATE: the write lock is taken at once, waiting up to the
// busy timeout, so two writers never deadlock upgrading read locks). Rolled back on
// destruction unless committed.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteConnection& connection);
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  ~SqliteTransaction();
  void Commit();

 private:
  SqliteConnection& connection_;
  bool open_ = true;
};

}  // namespace collage
