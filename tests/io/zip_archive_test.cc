#include "io/zip_archive.h"

#include <gtest/gtest.h>

#include <string>

#include "io/npz_test_util.h"
#include "support/error.h"

namespace collage {
namespace {

using testing::FindBytes;
using testing::MakeZip;
using testing::ToString;

const std::string kLocalHeaderSignature("PK\x03\x04", 4);
const std::string kCentralHeaderSignature("PK\x01\x02", 4);
const std::string kEndRecordSignature("PK\x05\x06", 4);
const std::string kZip64EndRecordSignature("PK\x06\x06", 4);

// The message of the Error `read` throws; "" when it throws none.
template <typename Read>
std::string ErrorOf(Read read) {
  try {
    read();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(ZipArchiveTest, StoredEntriesRoundTrip) {
  const auto archive = MakeZip({{"a.npy", "hello"}, {"dir/b", ""}, {"c", std::string(100000, 'q')}});
  ZipReader reader(archive, "t.zip");
  ASSERT_EQ(reader.entries().size(), 3u);
  EXPECT_EQ(reader.entries()[0].name, "a.npy");
  EXPECT_EQ(reader.entries()[0].uncompressed_size, 5u);
  EXPECT_EQ(reader.entries()[0].crc32, 0x3610a686u);  // crc32("hello")
  EXPECT_EQ(reader.entries()[0].compression, ZipCompression::kStored);
  EXPECT_EQ(reader.entries()[2].compressed_size, 100000u);
  EXPECT_EQ(ToString(reader.Extract(reader.entries()[0])), "hello");
  EXPECT_EQ(ToString(reader.Extract(reader.entries()[1])), "");
  EXPECT_EQ(ToString(reader.Extract(reader.entries()[2])), std::string(100000, 'q'));
}

TEST(ZipArchiveTest, ArchivesAreLaidOutAsZipFiles) {
  const auto archive = MakeZip({{"a", "xy"}});
  EXPECT_EQ(ToString(std::span(archive).first(4)), kLocalHeaderSignature);
  EXPECT_LT(FindBytes(archive, kCentralHeaderSignature), archive.size());
  ASSERT_GE(archive.size(), 22u);
  EXPECT_EQ(ToString(std::span(archive).last(22).first(4)), kEndRecordSignature);
  // Equal entries give equal archives (no time stamp of the moment).
  EXPECT_EQ(MakeZip({{"a", "xy"}}), archive);
  const auto empty = MakeZip({});
  EXPECT_EQ(ToString(empty), kEndRecordSignature + std::string(18, '\0'));
  EXPECT_TRUE(ZipReader(empty, "t.zip").entries().empty());
}

TEST(ZipArchiveTest, ManyEntriesUseTheZip64EndRecord) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < 70000; ++i) entries.emplace_back(std::to_string(i), std::to_string(i % 7));
  const auto archive = MakeZip(entries);
  EXPECT_LT(FindBytes(archive, kZip64EndRecordSignature), archive.size());
  ZipReader reader(archive, "t.zip");
  ASSERT_EQ(reader.entries().size(), 70000u);
  EXPECT_EQ(reader.entries()[69999].name, "69999");
  EXPECT_EQ(ToString(reader.Extract(reader.entries()[69999])), "6");  // 69999 = 7 * 9999 + 6
}

TEST(ZipArchiveTest, UnsupportedFeaturesAreErrors) {
  // The local header and the central directory say the same, as in a consistent archive.
  auto archive = MakeZip({{"a", "xy"}});
  const size_t central = FindBytes(archive, kCentralHeaderSignature);
  archive[8] = archive[central + 10] = std::byte{12};  // compression method 12 (bzip2)
  EXPECT_EQ(ErrorOf([&] { ZipReader(archive, "t.zip"); }),
            "t.zip: entry 'a': compression method 12 is not supported (expected stored or deflate)");
  archive = MakeZip({{"a", "xy"}});
  archive[6] = archive[central + 8] = std::byte{1};  // the encrypted flag
  EXPECT_EQ(ErrorOf([&] { ZipReader(archive, "t.zip"); }), "t.zip: entry 'a': encrypted entries are not supported");
}

TEST(ZipArchiveTest, CorruptArchivesAreOneLineErrorsNamingTheArchive) {
  const auto valid = MakeZip({{"a", "xy"}});
  const size_t central = FindBytes(valid, kCentralHeaderSignature);
  std::vector<std::byte> outside = valid;
  outside[central + 42] = std::byte{0x70};  // the local header's offset: past the end of the file
  std::vector<std::byte> renamed = valid;
  renamed[central + 46] = std::byte{'b'};  // the central directory names the entry "b", its local header "a"
  std::vector<std::byte> truncated(valid.begin(), valid.end() - 1);
  const std::vector<std::byte> too_short(valid.begin(), valid.begin() + 10);
  EXPECT_EQ(ErrorOf([&] { ZipReader(too_short, "t.zip"); }), "t.zip: not a zip archive (10 bytes, too short)");
  for (const std::vector<std::byte>* archive : {&outside, &renamed, &truncated}) {
    const std::string message = ErrorOf([&] {
      ZipReader reader(*archive, "t.zip");
      for (const ZipEntryInfo& entry : reader.entries()) reader.Extract(entry);
    });
    EXPECT_EQ(message.rfind("t.zip: ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  // Negative control: the archive they were made from reads.
  EXPECT_EQ(ErrorOf([&] {
              ZipReader reader(valid, "t.zip");
              EXPECT_EQ(ToString(reader.Extract(reader.entries().at(0))), "xy");
            }),
            "");
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
