// The ZIP container, as far as numpy's .npz files need it, over libzip.
//
// ZipReader opens an archive held in memory (its central directory, ZIP64 included, checked
// against the local headers) and, on request, extracts one entry, stored or deflate-compressed,
// checked against its CRC-32. Corrupt input gives an Error whose one-line message starts with
// the archive name (and the entry name).
//
// ZipWriter writes an archive of stored (uncompressed) entries to an std::ostream, with ZIP64
// records where sizes, offsets or the number of entries need them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace collage {

enum class ZipCompression { kStored, kDeflated };

// One entry of the central directory.
struct ZipEntryInfo {
  uint64_t index = 0;  // in the central directory
  std::string name;
  ZipCompression compression = ZipCompression::kStored;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
};

class ZipReader {
 public:
  // Opens the archive. `archive` must outlive the reader; `archive_name` prefixes error
  // messages.
  ZipReader(std::span<const std::byte> archive, std::string archive_name);
  ~ZipReader();
  ZipReader(const ZipReader&) = delete;
  ZipReader& operator=(const ZipReader&) = delete;

  // Entries in central-directory order.
  const std::vector<ZipEntryInfo>& entries() const { return entries_; }
  // The decompressed contents of `entry` (one of entries()), CRC-checked.
  std::vector<std::byte> Extract(const ZipEntryInfo& entry) const;
  const std::string& archive_name() const { return archive_name_; }

 private:
  struct Archive;  // libzip's handle
  std::unique_ptr<Archive> archive_;
  std::string archive_name_;
  std::vector<ZipEntryInfo> entries_;
};

class ZipWriter {
 public:
  // Writes to `out`, which must outlive the writer; `archive_name` prefixes error messages.
  ZipWriter(std::ostream& out, std::string archive_name);

  // Adds a stored entry whose contents are the concatenation of `pieces`. Names must be
  // non-empty and unique.
  void AddStoredEntry(const std::string& name, std::span<const std::span<const std::byte>> pieces);
  // Writes the archive; no entry may be added afterwards.
  void Finish();

 private:
  struct Entry {
    std::string name;
    std::vector<std::byte> contents;
  };

  std::ostream& out_;
  std::string archive_name_;
  bool finished_ = false;
  std::vector<Entry> entries_;
  std::set<std::string> names_;
};

}  // namespace collage
