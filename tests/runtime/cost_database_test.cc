#include "runtime/cost_database.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "runtime/sqlite_connection.h"
#include "support/error.h"
#include "testing/scoped_environment.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

CostKey ExampleKey() { return {"9f86d081884c7d65", "onednn", "3.0.0", "AMD EPYC | avx2 fma", 4}; }

CostRecord ExampleRecord() {
  CostRecord record;
  record.seconds = 1.25e-4;
  record.median_seconds = 1.2e-4;
  record.p10_seconds = 1.0e-4;
  record.p90_seconds = 2.5e-4;
  record.runs = 37;
  record.description = "onednn: nn.conv2d+nn.relu 1x64x56x56";
  record.measured_at = 1700000000.5;
  record.probe_seconds = 0.00125;
  return record;
}

void ExpectSameRecord(const CostRecord& actual, const CostRecord& expected) {
  EXPECT_EQ(actual.valid, expected.valid);
  EXPECT_EQ(actual.reason, expected.reason);
  EXPECT_EQ(actual.seconds, expected.seconds);
  EXPECT_EQ(actual.median_seconds, expected.median_seconds);
  EXPECT_EQ(actual.p10_seconds, expected.p10_seconds);
  EXPECT_EQ(actual.p90_seconds, expected.p90_seconds);
  EXPECT_EQ(actual.runs, expected.runs);
  EXPECT_EQ(actual.description, expected.description);
  EXPECT_EQ(actual.measured_at, expected.measured_at);
  EXPECT_EQ(actual.transient, expected.transient);
  EXPECT_EQ(actual.probe_seconds, expected.probe_seconds);
}

// Runs `sql` on the file through a connection of its own.
void ExecuteOn(const std::string& path, const std::string& sql) { SqliteConnection::Open(path).Execute(sql); }

// The message of the Error that opening `path` throws; fails the test if it throws none.
std::string OpenError(const std::string& path) {
  std::ostringstream messages;
  try {
    CostDatabase::Open(path, messages);
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "opening " << path << " did not throw";
  return "";
}

class CostDatabaseTest : public ::testing::Test {
 protected:
  CostDatabase OpenDatabase() { return CostDatabase::Open(path_, messages_); }

  testing::TempDirectory directory_;
  std::string path_ = directory_.PathOf("costs.sqlite");
  std::ostringstream messages_;
};

TEST_F(CostDatabaseTest, RoundTripKeepsEveryField) {
  OpenDatabase().Store(ExampleKey(), ExampleRecord());
  CostDatabase reopened = OpenDatabase();
  const std::optional<CostRecord> found = reopened.Lookup(ExampleKey());
  ASSERT_TRUE(found.has_value());
  ExpectSameRecord(*found, ExampleRecord());
  EXPECT_TRUE(messages_.str().empty()) << messages_.str();
}

TEST_F(CostDatabaseTest, StoreStampsTheTimeWhenMeasuredAtIsZero) {
  CostDatabase database = OpenDatabase();
  CostRecord record = ExampleRecord();
  record.measured_at = 0;
  const double before = static_cast<double>(std::time(nullptr));
  database.Store(ExampleKey(), record);
  const double stamped = database.Lookup(ExampleKey())->measured_at;
  EXPECT_GE(stamped, before - 1);
  EXPECT_LE(stamped, before + 60);
}

TEST_F(CostDatabaseTest, EveryKeyFieldSelectsItsOwnEntry) {
  CostDatabase database = OpenDatabase();
  database.Store(ExampleKey(), ExampleRecord());
  std::vector<CostKey> changed(5, ExampleKey());
  changed[0].candidate_hash = "9f86d081884c7d66";
  changed[1].backend = "xnnpack";
  changed[2].backend_version = "3.0.1";
  changed[3].device = "AMD EPYC | avx2 fma avx512f";
  changed[4].threads = 1;
  for (size_t field = 0; field < changed.size(); ++field) {
    EXPECT_FALSE(database.Lookup(changed[field]).has_value()) << "key field " << field;
  }
  CostRecord other = ExampleRecord();
  other.seconds = 7;
  database.Store(changed[4], other);
  EXPECT_EQ(database.Lookup(changed[4])->seconds, 7);
  EXPECT_EQ(database.Lookup(ExampleKey())->seconds, ExampleRecord().seconds);
}

TEST_F(CostDatabaseTest, InvalidRecordKeepsItsReason) {
  CostDatabase database = OpenDatabase();
  CostRecord failed;
  failed.valid = false;
  failed.reason = "timed out after 10 s";
  failed.description = "native: nn.softmax 1x1000";
  database.Store(ExampleKey(), failed);
  const std::optional<CostRecord> found = database.Lookup(ExampleKey());
  ASSERT_TRUE(found.has_value());
  EXPECT_FALSE(found->valid);
  EXPECT_EQ(found->reason, "timed out after 10 s");
  EXPECT_EQ(found->description, "native: nn.softmax 1x1000");
}

TEST_F(CostDatabaseTest, StoreReplacesTheRecordOfTheSameKey) {
  CostDatabase database = OpenDatabase();
  database.Store(ExampleKey(), ExampleRecord());
  CostRecord remeasured = ExampleRecord();
  remeasured.seconds = 3e-4;
  remeasured.runs = 5;
  database.Store(ExampleKey(), remeasured);
  ExpectSameRecord(*database.Lookup(ExampleKey()), remeasured);
  EXPECT_EQ(database.GetStats().entries, 1u);
}

TEST_F(CostDatabaseTest, StoreAllStoresAllOrNothing) {
  CostDatabase database = OpenDatabase();
  std::vector<std::pair<CostKey, CostRecord>> records;
  for (int threads = 1; threads <= 3; ++threads) {
    CostKey key = ExampleKey();
    key.threads = threads;
    records.emplace_back(key, ExampleRecord());
  }
  database.StoreAll(records);
  EXPECT_EQ(database.GetStats().entries, 3u);

  // SQLite stores NaN as NULL, which the schema refuses: the whole batch is rolled back.
  std::vector<std::pair<CostKey, CostRecord>> failing = records;
  for (auto& [key, record] : failing) key.backend = "openblas";
  failing[1].second.seconds = std::numeric_limits<double>::quiet_NaN();
  try {
    database.StoreAll(failing);
    ADD_FAILURE() << "StoreAll accepted a NaN cost";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(path_), std::string::npos) << error.what();
  }
  EXPECT_EQ(database.GetStats().entries, 3u);
  EXPECT_FALSE(database.Lookup(failing[0].first).has_value());
  database.Store(failing[0].first, failing[0].second);  // the connection is usable after the rollback
  EXPECT_EQ(database.GetStats().entries, 4u);
}

TEST_F(CostDatabaseTest, StatsCountEntriesInvalidOnesAndBackends) {
  CostDatabase database = OpenDatabase();
  CostKey key = ExampleKey();
  database.Store(key, ExampleRecord());
  key.candidate_hash = "01";
  CostRecord failed;
  failed.valid = false;
  failed.reason = "compile error";
  database.Store(key, failed);
  key.backend = "xnnpack";
  database.Store(key, ExampleRecord());
  database.StoreDeviceValue(key.device, "memory_bandwidth_bytes_per_second", 2e10);

  const CostDatabase::Stats stats = database.GetStats();
  EXPECT_EQ(stats.path, path_);
  EXPECT_EQ(stats.schema_version, CostDatabase::kSchemaVersion);
  EXPECT_GT(stats.file_bytes, 0u);
  EXPECT_EQ(stats.entries, 3u);
  EXPECT_EQ(stats.invalid, 1u);
  EXPECT_EQ(stats.per_backend, (std::map<std::string, size_t>{{"onednn", 2}, {"xnnpack", 1}}));
  EXPECT_EQ(stats.device_values, 1u);
}

TEST_F(CostDatabaseTest, ClearRemovesEveryEntryAndDeviceValue) {
  CostDatabase database = OpenDatabase();
  CostKey key = ExampleKey();
  database.Store(key, ExampleRecord());
  key.threads = 2;
  database.Store(key, ExampleRecord());
  database.StoreDeviceValue(key.device, "bandwidth", 1.0);
  EXPECT_EQ(database.Clear(), 2u);
  EXPECT_EQ(database.GetStats().entries, 0u);
  EXPECT_EQ(database.GetStats().device_values, 0u);
  EXPECT_FALSE(database.Lookup(key).has_value());
  EXPECT_EQ(database.Clear(), 0u);
}

TEST_F(CostDatabaseTest, ExportCsvHasAHeaderAndOneQuotedRowPerEntry) {
  CostDatabase database = OpenDatabase();
  CostRecord failed;
  failed.valid = false;
  failed.reason = "error: \"conv\" failed, twice";
  failed.measured_at = 2.5;
  database.Store(ExampleKey(), failed);
  CostKey second = ExampleKey();
  second.backend = "xnnpack";
  database.Store(second, ExampleRecord());

  std::ostringstream csv;
  database.ExportCsv(csv);
  EXPECT_EQ(csv.str(),
            "candidate_hash,backend,backend_version,device,threads,valid,reason,seconds,median_seconds,p10_seconds,"
            "p90_seconds,runs,description,measured_at,transient,probe_seconds\n"
            "9f86d081884c7d65,onednn,3.0.0,AMD EPYC | avx2 fma,4,0,\"error: \"\"conv\"\" failed, twice\",0,0,0,0,0,,"
            "2.5,0,0\n"
            "9f86d081884c7d65,xnnpack,3.0.0,AMD EPYC | avx2 fma,4,1,,0.000125,0.00012,1e-04,0.00025,37,"
            "onednn: nn.conv2d+nn.relu 1x64x56x56,1700000000.5,0,0.00125\n");
}

TEST_F(CostDatabaseTest, DeviceValuesAreKeyedByDeviceAndName) {
  CostDatabase database = OpenDatabase();
  EXPECT_FALSE(database.LookupDeviceValue("cpu a", "bandwidth").has_value());
  database.StoreDeviceValue("cpu a", "bandwidth", 1.5e10);
  database.StoreDeviceValue("cpu b", "bandwidth", 3e10);
  database.StoreDeviceValue("cpu a", "latency", 8e-8);
  EXPECT_EQ(database.LookupDeviceValue("cpu a", "bandwidth"), 1.5e10);
  EXPECT_EQ(database.LookupDeviceValue("cpu b", "bandwidth"), 3e10);
  EXPECT_EQ(database.LookupDeviceValue("cpu a", "latency"), 8e-8);
  database.StoreDeviceValue("cpu a", "bandwidth", 2e10);
  EXPECT_EQ(OpenDatabase().LookupDeviceValue("cpu a", "bandwidth"), 2e10);
}

TEST_F(CostDatabaseTest, OpenCreatesParentFoldersAndUsesWal) {
  const std::string nested = directory_.PathOf("a/b/costs.sqlite");
  CostDatabase database = CostDatabase::Open(nested, messages_);
  database.Store(ExampleKey(), ExampleRecord());
  EXPECT_TRUE(std::filesystem::exists(nested));
  SqliteStatement mode = SqliteConnection::Open(nested).Prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.Step());
  EXPECT_EQ(mode.Text(0), "wal");
  EXPECT_EQ(database.CheckIntegrity(), "ok");
}

TEST_F(CostDatabaseTest, MovedDatabaseKeepsWorking) {
  CostDatabase first = OpenDatabase();
  CostDatabase second = std::move(first);
  second.Store(ExampleKey(), ExampleRecord());
  CostDatabase third = OpenDatabase();
  third = std::move(second);
  EXPECT_TRUE(third.Lookup(ExampleKey()).has_value());
  EXPECT_EQ(third.path(), path_);
}

TEST_F(CostDatabaseTest, FileThatIsNotADatabaseIsAClearError) {
  std::ofstream(path_) << "this is a text file, not an SQLite database; it is long enough to have a header.\n"
                       << std::string(200, 'x');
  const std::string message = OpenError(path_);
  EXPECT_NE(message.find(path_), std::string::npos) << message;
  EXPECT_NE(message.find("file is not a database"), std::string::npos) << message;
}

TEST_F(CostDatabaseTest, FolderInPlaceOfTheFileIsAClearError) {
  std::filesystem::create_directories(path_);
  const std::string message = OpenError(path_);
  EXPECT_NE(message.find(path_), std::string::npos) << message;
}

TEST_F(CostDatabaseTest, NewerSchemaIsAnErrorNamingThePath) {
  OpenDatabase().Store(ExampleKey(), ExampleRecord());
  ExecuteOn(path_, "PRAGMA user_version = " + std::to_string(CostDatabase::kSchemaVersion + 1));
  const std::string message = OpenError(path_);
  EXPECT_NE(message.find(path_), std::string::npos) << message;
  EXPECT_NE(message.find("newer"), std::string::npos) << message;
}

TEST_F(CostDatabaseTest, OlderSchemaIsRecreatedWithAMessage) {
  OpenDatabase().Store(ExampleKey(), ExampleRecord());
  ExecuteOn(path_, "DROP TABLE costs; CREATE TABLE costs (candidate_hash TEXT, seconds REAL); PRAGMA user_version = 0");
  CostDatabase database = OpenDatabase();
  EXPECT_NE(messages_.str().find("recreated"), std::string::npos) << messages_.str();
  EXPECT_NE(messages_.str().find(path_), std::string::npos) << messages_.str();
  EXPECT_EQ(database.GetStats().entries, 0u);
  EXPECT_EQ(database.GetStats().schema_version, CostDatabase::kSchemaVersion);
  database.Store(ExampleKey(), ExampleRecord());
  EXPECT_TRUE(database.Lookup(ExampleKey()).has_value());
}

TEST_F(CostDatabaseTest, TransientFailuresRoundTrip) {
  CostDatabase database = OpenDatabase();
  CostRecord timed_out;
  timed_out.valid = false;
  timed_out.transient = true;
  timed_out.reason = "timed out after 60 s";
  timed_out.measured_at = 1700000000;
  database.Store(ExampleKey(), timed_out);
  ExpectSameRecord(*database.Lookup(ExampleKey()), timed_out);
  EXPECT_EQ(database.GetStats().transient, 1u);
}

// Schema 1, as collage wrote it before the transient column.
constexpr const char* kSchema1 = R"(
CREATE TABLE costs (candidate_hash TEXT NOT NULL, backend TEXT NOT NULL, backend_version TEXT NOT NULL,
  device TEXT NOT NULL, threads INTEGER NOT NULL, valid INTEGER NOT NULL, reason TEXT NOT NULL, seconds REAL NOT NULL,
  median_seconds REAL NOT NULL, p10_seconds REAL NOT NULL, p90_seconds REAL NOT NULL, runs INTEGER NOT NULL,
  description TEXT NOT NULL, measured_at REAL NOT NULL,
  PRIMARY KEY (candidate_hash, backend, backend_version, device, threads)) WITHOUT ROWID;
CREATE TABLE device_values (device TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL, measured_at REAL NOT NULL,
  PRIMARY KEY (device, name)) WITHOUT ROWID;
PRAGMA application_id = 1131177795;
PRAGMA user_version = 1;
INSERT INTO costs VALUES ('a', 'onednn', '3', 'cpu', 1, 1, '', 0.5, 0.5, 0.4, 0.6, 3, 'ok', 1);
INSERT INTO costs VALUES ('b', 'onednn', '3', 'cpu', 1, 0, 'timed out after 60 s', 0, 0, 0, 0, 0, 'slow', 1);
INSERT INTO costs VALUES ('c', 'onednn', '3', 'cpu', 1, 0,
  'the measurement worker /bin/w died: killed by signal 9 (Killed)', 0, 0, 0, 0, 0, 'oom', 1);
INSERT INTO costs VALUES ('d', 'onednn', '3', 'cpu', 1, 0,
  'the measurement worker /bin/w died: killed by signal 11 (Segmentation fault)', 0, 0, 0, 0, 0, 'crash', 1);
INSERT INTO costs VALUES ('e', 'onednn', '3', 'cpu', 1, 0, 'onednn: cannot lower nn.pad', 0, 0, 0, 0, 0, 'no', 1);
)";

TEST_F(CostDatabaseTest, Schema1IsMigratedAndItsPassingFailuresBecomeTransient) {
  ExecuteOn(path_, kSchema1);
  CostDatabase database = OpenDatabase();
  EXPECT_NE(messages_.str().find("migrated from schema version 1 to 3; 2 failed measurements marked transient"),
            std::string::npos)
      << messages_.str();
  EXPECT_EQ(database.GetStats().schema_version, CostDatabase::kSchemaVersion);
  auto lookup = [&](const std::string& hash) { return *database.Lookup({hash, "onednn", "3", "cpu", 1}); };
  EXPECT_TRUE(lookup("a").valid);
  EXPECT_EQ(lookup("a").seconds, 0.5);
  EXPECT_FALSE(lookup("a").transient);
  EXPECT_TRUE(lookup("b").transient);
  EXPECT_TRUE(lookup("c").transient);
  EXPECT_FALSE(lookup("d").transient);
  EXPECT_FALSE(lookup("e").transient);
  EXPECT_EQ(lookup("a").probe_seconds, 0.0);
  EXPECT_EQ(database.GetStats().entries, 5u);
  EXPECT_EQ(database.CheckIntegrity(), "ok");
}

// Schema 2 gains the probe_seconds column: its costs are kept, with the machine's speed unknown.
TEST_F(CostDatabaseTest, Schema2IsMigratedKeepingItsCosts) {
  ExecuteOn(path_, std::string(kSchema1) + R"(
ALTER TABLE costs ADD COLUMN transient INTEGER NOT NULL DEFAULT 0;
PRAGMA user_version = 2;
)");
  CostDatabase database = OpenDatabase();
  EXPECT_NE(messages_.str().find("migrated from schema version 2 to 3\n"), std::string::npos) << messages_.str();
  const CostRecord kept = *database.Lookup({"a", "onednn", "3", "cpu", 1});
  EXPECT_EQ(kept.seconds, 0.5);
  EXPECT_EQ(kept.probe_seconds, 0.0);
  EXPECT_FALSE(database.Lookup({"b", "onednn", "3", "cpu", 1})->transient) << "schema 2 already had the column";
  CostRecord probed = kept;
  probed.probe_seconds = 2e-3;
  database.Store({"a", "onednn", "3", "cpu", 1}, probed);
  EXPECT_EQ(database.Lookup({"a", "onednn", "3", "cpu", 1})->probe_seconds, 2e-3);
  EXPECT_EQ(database.GetStats().schema_version, CostDatabase::kSchemaVersion);
}

TEST_F(CostDatabaseTest, DatabaseOfSomethingElseIsRefusedAndKept) {
  ExecuteOn(path_, "CREATE TABLE accounts (name TEXT); INSERT INTO accounts VALUES ('kept')");
  const std::string message = OpenError(path_);
  EXPECT_NE(message.find("not a collage cost database"), std::string::npos) << message;
  SqliteStatement kept = SqliteConnection::Open(path_).Prepare("SELECT name FROM accounts");
  ASSERT_TRUE(kept.Step());
  EXPECT_EQ(kept.Text(0), "kept");
}

using testing::ScopedEnvironment;

TEST(CostDatabaseDefaultPathTest, FollowsTheEnvironment) {
  ScopedEnvironment home("HOME", "/home/tuner");
  {
    ScopedEnvironment database("COLLAGE_COST_DB", "/data/costs.sqlite");
    ScopedEnvironment cache("XDG_CACHE_HOME", "/cache");
    EXPECT_EQ(CostDatabase::DefaultPath(), "/data/costs.sqlite");
  }
  ScopedEnvironment database("COLLAGE_COST_DB", nullptr);
  {
    ScopedEnvironment cache("XDG_CACHE_HOME", "/cache");
    EXPECT_EQ(CostDatabase::DefaultPath(), "/cache/collage/costs.sqlite");
  }
  {
    ScopedEnvironment relative_cache("XDG_CACHE_HOME", "relative");
    EXPECT_EQ(CostDatabase::DefaultPath(), "/home/tuner/.cache/collage/costs.sqlite");
  }
  ScopedEnvironment cache("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(CostDatabase::DefaultPath(), "/home/tuner/.cache/collage/costs.sqlite");
}

TEST(CostDatabaseDefaultPathTest, WithoutHomeIsInTheUsersPrivateTemporaryFolder) {
  testing::TempDirectory temporary;
  const std::string root = std::filesystem::path(temporary.PathOf("x")).parent_path().string();
  ScopedEnvironment database("COLLAGE_COST_DB", nullptr);
  ScopedEnvironment cache("XDG_CACHE_HOME", nullptr);
  ScopedEnvironment home("HOME", nullptr);
  ScopedEnvironment tmpdir("TMPDIR", root.c_str());
  const std::string folder = temporary.PathOf("collage-cache-" + std::to_string(geteuid()));
  EXPECT_EQ(CostDatabase::DefaultPath(), folder + "/costs.sqlite");
  struct stat status;
  ASSERT_EQ(stat(folder.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0700u);
}

}  // namespace
}  // namespace collage
