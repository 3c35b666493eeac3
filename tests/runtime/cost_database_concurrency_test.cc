// Two processes, each with its own connection, store and read thousands of rows in one
// database at the same time: both must finish without a "database is locked" error and the
// file must pass SQLite's integrity check.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "runtime/cost_database.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

constexpr int kRowsPerProcess = 3000;
constexpr int kBatchSize = 100;

CostKey KeyOf(int process, int row) {
  return {"hash" + std::to_string(row), "backend" + std::to_string(process), "1.0", "test cpu", 1};
}

CostRecord RecordOf(int row) {
  CostRecord record;
  record.seconds = 1e-6 * (row + 1);
  record.median_seconds = record.seconds;
  record.runs = row % 50;
  record.description = "row " + std::to_string(row);
  return record;
}

// Half the rows in single Stores, half in StoreAll batches; after each write, reads back its
// own rows and whatever the other process has stored. Returns the exit status for the child.
int Tune(const std::string& path, int process) {
  try {
    std::ostringstream messages;
    CostDatabase database = CostDatabase::Open(path, messages);
    std::vector<std::pair<CostKey, CostRecord>> batch;
    for (int row = 0; row < kRowsPerProcess; ++row) {
      if (row % 2 == 0) {
        database.Store(KeyOf(process, row), RecordOf(row));
      } else {
        batch.emplace_back(KeyOf(process, row), RecordOf(row));
        if (batch.size() == kBatchSize) {
          database.StoreAll(batch);
          batch.clear();
        }
      }
      if (row % 2 == 0 && database.Lookup(KeyOf(process, row))->description != "row " + std::to_string(row)) {
        std::cerr << "process " << process << " lost its row " << row << "\n";
        return 1;
      }
      database.Lookup(KeyOf(1 - process, row));  // the other process may or may not have stored it yet
    }
    database.StoreAll(batch);
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "process " << process << ": " << error.what() << "\n";
    return 1;
  }
}

TEST(CostDatabaseConcurrencyTest, TwoProcessesStoringAtOnceBothFinishAndTheFileIsIntact) {
  testing::TempDirectory directory;
  const std::string path = directory.PathOf("costs.sqlite");
  std::vector<pid_t> children;
  for (int process = 0; process < 2; ++process) {
    const pid_t child = fork();
    ASSERT_GE(child, 0) << "fork failed";
    if (child == 0) _exit(Tune(path, process));
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a tuning process failed";
  }
  CostDatabase database = CostDatabase::Open(path);
  EXPECT_EQ(database.CheckIntegrity(), "ok");
  const CostDatabase::Stats stats = database.GetStats();
  EXPECT_EQ(stats.entries, 2u * kRowsPerProcess);
  EXPECT_EQ(stats.per_backend,
            (std::map<std::string, size_t>{{"backend0", kRowsPerProcess}, {"backend1", kRowsPerProcess}}));
  for (int process = 0; process < 2; ++process) {
    for (int row : {0, 1, kRowsPerProcess - 1}) {
      const std::optional<CostRecord> record = database.Lookup(KeyOf(process, row));
      ASSERT_TRUE(record.has_value()) << process << " " << row;
      EXPECT_EQ(record->seconds, RecordOf(row).seconds);
    }
  }
}

}  // namespace
}  // namespace collage
