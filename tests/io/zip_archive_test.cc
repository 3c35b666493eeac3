#include "io/zip_archive.h"

#include <gtest/gtest.h>

#include <string>

#include "io/npz_test_util.h"
#include "support/error.h"

namespace collage {
namespace {

using testing::MakeZip;
using testing::ToBytes;
using testing::ToString;

TEST(ZipArchiveTest, Crc32MatchesTheStandardCheckValue) {
  const std::string text = "123456789";
  const auto bytes = ToBytes(text);
  const std::span<const std::byte> whole[] = {bytes};
  EXPECT_EQ(Crc32(whole), 0xcbf43926u);
  const std::span<const std::byte> split[] = {std::span(bytes).first(4), std::span(bytes).subspan(4)};
  EXPECT_EQ(Crc32(split), 0xcbf43926u);
}

TEST(ZipArchiveTest, StoredEntriesRoundTrip) {
  for (bool force_zip64 : {false, true}) {
    SCOPED_TRACE(force_zip64 ? "zip64" : "plain");
    const auto archive = MakeZip({{"a.npy", "hello"}, {"dir/b", ""}, {"c", std::string(100000, 'q')}}, force_zip64);
    ZipReader reader(archive, "t.zip");
    ASSERT_EQ(reader.entries().size(), 3u);
    EXPECT_EQ(reader.entries()[0].name, "a.npy");
    EXPECT_EQ(reader.entries()[0].uncompressed_size, 5u);
    EXPECT_EQ(reader.entries()[0].compression, ZipCompression::kStored);
    EXPECT_EQ(ToString(reader.Extract(reader.entries()[0])), "hello");
    EXPECT_EQ(ToString(reader.Extract(reader.entries()[1])), "");
    EXPECT_EQ(ToString(reader.Extract(reader.entries()[2])), std::string(100000, 'q'));
  }
}

TEST(ZipArchiveTest, PlainArchiveHasTheExpectedLayout) {
  // One entry "a" holding "xy": 30 + 1 + 2 bytes of local entry, 46 + 1 of directory, 22 of end record.
  const auto archive = MakeZip({{"a", "xy"}});
  ASSERT_EQ(archive.size(), 30u + 1 + 2 + 46 + 1 + 22);
  EXPECT_EQ(ToString(std::span(archive).first(4)), "PK\x03\x04");
  EXPECT_EQ(ToString(std::span(archive).subspan(33, 4)), "PK\x01\x02");
  EXPECT_EQ(ToString(std::span(archive).subspan(80, 4)), "PK\x05\x06");
}

TEST(ZipArchiveTest, ManyEntriesUseTheZip64EndRecord) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < 70000; ++i) entries.emplace_back(std::to_string(i), std::to_string(i % 7));
  const auto archive = MakeZip(entries);
  ZipReader reader(archive, "t.zip");
  ASSERT_EQ(reader.entries().size(), 70000u);
  EXPECT_EQ(reader.entries()[69999].name, "69999");
  EXPECT_EQ(ToString(reader.Extract(reader.entries()[69999])), "6");  // 69999 = 7 * 9999 + 6
}

TEST(ZipArchiveTest, UnsupportedFeaturesAreErrors) {
  auto archive = MakeZip({{"a", "xy"}});
  archive[33 + 10] = std::byte{12};  // central directory: compression method 12 (bzip2)
  try {
    ZipReader reader(archive, "t.zip");
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "t.zip: entry 'a': compression method 12 is not supported (expected stored or deflate)");
  }
  archive = MakeZip({{"a", "xy"}});
  archive[33 + 8] = std::byte{1};  // central directory: encrypted flag
  EXPECT_THROW(ZipReader(archive, "t.zip"), Error);
}

TEST(ZipArchiveTest, OffsetsOutsideTheFileAreErrors) {
  auto archive = MakeZip({{"a", "xy"}});
  archive[33 + 42] = std::byte{0x70};  // central directory: local header offset 0x70 (past the end)
  ZipReader reader(archive, "t.zip");
  try {
    reader.Extract(reader.entries()[0]);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "t.zip: entry 'a': local header (30 bytes at offset 112) lies outside the 102-byte file");
  }
}

TEST(ZipArchiveTest, WriterRejectsBadNames) {
  std::ostringstream out;
  ZipWriter writer(out, "t.zip");
  writer.AddStoredEntry("a", {});
  EXPECT_THROW(writer.AddStoredEntry("a", {}), Error);
  EXPECT_THROW(writer.AddStoredEntry("", {}), Error);
  writer.Finish();
  EXPECT_THROW(writer.AddStoredEntry("b", {}), Error);
}

}  // namespace
}  // namespace collage
