// The ZIP container, as far as numpy's .npz files need it.
//
// ZipReader parses an archive held in memory: the central directory (ZIP64 included),
// then, on request, one entry's contents, stored or deflate-compressed, checked against
// its CRC-32. Every offset and size read from the archive is bounds-checked; corrupt input
// gives an Error whose one-line message starts with the archive name (and the entry name).
//
// ZipWriter streams an archive of stored (uncompressed) entries to an std::ostream, with
// ZIP64 records where sizes or offsets need them (or everywhere when forced, as numpy does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace collage {

enum class ZipCompression { kStored, kDeflated };

// One entry of the central directory.
struct ZipEntryInfo {
  std::string name;
  ZipCompression compression = ZipCompression::kStored;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
};

class ZipReader {
 public:
  // Parses the central directory. `archive` must outlive the reader; `archive_name`
  // prefixes error messages.
  ZipReader(std::span<const std::byte> archive, std::string archive_name);

  // Entries in central-directory order.
  const std::vector<ZipEntryInfo>& entries() const { return entries_; }
  // The decompressed contents of `entry` (one of entries()), CRC-checked.
  std::vector<std::byte> Extract(const ZipEntryInfo& entry) const;
  const std::string& archive_name() const { return archive_name_; }

 private:
  std::span<const std::byte> archive_;
  std::string archive_name_;
  std::vector<ZipEntryInfo> entries_;
};

class ZipWriter {
 public:
  // Writes to `out`, which must outlive the writer; `archive_name` prefixes error messages.
  // `force_zip64` writes ZIP64 size records for every entry even when not needed.
  ZipWriter(std::ostream& out, std::string archive_name, bool force_zip64 = false);

  // Appends a stored entry whose contents are the concatenation of `pieces`.
  // Names must be non-empty and unique.
  void AddStoredEntry(const std::string& name, std::span<const std::span<const std::byte>> pieces);
  // Writes the central directory; no entry may be added afterwards.
  void Finish();

 private:
  void WriteBytes(std::span<const std::byte> bytes);

  std::ostream& out_;
  std::string archive_name_;
  bool force_zip64_;
  bool finished_ = false;
  uint64_t offset_ = 0;
  std::vector<ZipEntryInfo> entries_;
  std::set<std::string> names_;
};

// CRC-32 (the ZIP / zlib polynomial) of the concatenation of `pieces`.
uint32_t Crc32(std::span<const std::span<const std::byte>> pieces);

}  // namespace collage
