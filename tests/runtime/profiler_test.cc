#include "runtime/profiler.h"

#include "support/error.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

TEST(ProfilerTest, RowsHaveMeanMedianAndShare) {
  Profiler profiler;
  const size_t conv = profiler.Add({"onednn_0", "onednn", 3});
  const size_t rest = profiler.Add({"native_1", "native", 1});
  for (double ms : {1.0, 5.0, 3.0}) profiler.Record(conv, ms);
  for (double ms : {1.0, 2.0}) profiler.Record(rest, ms);
  const std::vector<ProfileRow> rows = profiler.Rows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].call.global_symbol, "onednn_0");
  EXPECT_EQ(rows[0].runs, 3u);
  EXPECT_DOUBLE_EQ(rows[0].mean_ms, 3.0);
  EXPECT_DOUBLE_EQ(rows[0].median_ms, 3.0);
  EXPECT_DOUBLE_EQ(rows[1].mean_ms, 1.5);
  EXPECT_DOUBLE_EQ(rows[1].median_ms, 1.5);
  EXPECT_DOUBLE_EQ(rows[0].share, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(rows[1].share, 1.0 / 3.0);
}

TEST(ProfilerTest, TableHasAHeaderOneLinePerCallAndATotal) {
  Profiler profiler;
  profiler.Record(profiler.Add({"reference_0", "reference", 12}), 0.5);
  profiler.Record(profiler.Add({"host_0", "reference", 1}), 1.5);
  EXPECT_EQ(profiler.Table(),
            "partition    backend    ops  runs  mean ms  median ms   share\n"
            "reference_0  reference   12     1    0.500      0.500   25.0%\n"
            "host_0       reference    1     1    1.500      1.500   75.0%\n"
            "total                    13          2.000      2.000  100.0%\n");
}

TEST(ProfilerTest, RecordingAnUnknownCallIsAnError) {
  Profiler profiler;
  EXPECT_THROW(profiler.Record(0, 1.0), Error);
}

}  // namespace
}  // namespace collage
