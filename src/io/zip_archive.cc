#include "io/zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <set>

#include "support/error.h"

namespace collage {
namespace {

// Record signatures and fixed sizes (PKWARE APPNOTE 6.3).
constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kEndOfCentralDirectorySignature = 0x06054b50;
constexpr uint32_t kZip64EndOfCentralDirectorySignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kEndOfCentralDirectorySize = 22;
constexpr size_t kZip64EndOfCentralDirectorySize = 56;
constexpr size_t kZip64LocatorSize = 20;
constexpr size_t kMaxCommentSize = 0xffff;

constexpr uint16_t kZip64ExtraFieldId = 0x0001;
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflated = 8;
constexpr uint16_t kFlagEncrypted = 1u << 0;
constexpr uint16_t kFlagUtf8Name = 1u << 11;
constexpr uint16_t kVersionDefault = 20;
constexpr uint16_t kVersionZip64 = 45;
constexpr uint16_t kDosDate1980January1 = (0 << 9) | (1 << 5) | 1;

// In 16- and 32-bit fields, "the real value is in the ZIP64 record".
constexpr uint16_t kMarker16 = 0xffff;
constexpr uint32_t kMarker32 = 0xffffffff;

// The largest ratio deflate can reach is about 1032:1; a larger claim is corrupt.
constexpr uint64_t kMaxDeflateRatio = 1032;
// zlib counts bytes in 32-bit unsigned ints.
constexpr size_t kMaxZlibChunk = UINT_MAX;

[[noreturn]] void Fail(const std::string& context, const std::string& message) {
  throw Error(context + ": " + message);
}

// Reads little-endian fields from a span; every read is bounds-checked and fails with
// "<context>: <what> is truncated".
class LittleEndianCursor {
 public:
  LittleEndianCursor(std::span<const std::byte> bytes, std::string context, std::string what)
      : bytes_(bytes), context_(std::move(context)), what_(std::move(what)) {}

  uint16_t U16() { return static_cast<uint16_t>(ReadUnsigned(2)); }
  uint32_t U32() { return static_cast<uint32_t>(ReadUnsigned(4)); }
  uint64_t U64() { return ReadUnsigned(8); }
  std::span<const std::byte> Bytes(size_t count) {
    Require(count);
    std::span<const std::byte> result = bytes_.subspan(position_, count);
    position_ += count;
    return result;
  }
  void Skip(size_t count) { Bytes(count); }
  size_t remaining() const { return bytes_.size() - position_; }

 private:
  void Require(size_t count) const {
    if (count > remaining()) Fail(context_, what_ + " is truncated");
  }
  uint64_t ReadUnsigned(size_t width) {
    Require(width);
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) {
      value |= static_cast<uint64_t>(std::to_integer<uint8_t>(bytes_[position_ + i])) << (8 * i);
    }
    position_ += width;
    return value;
  }

  std::span<const std::byte> bytes_;
  size_t position_ = 0;
  std::string context_;
  std::string what_;
};

// Appends little-endian fields to a byte buffer.
class LittleEndianBuffer {
 public:
  void U16(uint64_t value) { PutUnsigned(value, 2); }
  void U32(uint64_t value) { PutUnsigned(value, 4); }
  void U64(uint64_t value) { PutUnsigned(value, 8); }
  void Bytes(std::span<const std::byte> bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }
  void Text(const std::string& text) { Bytes(std::as_bytes(std::span(text.data(), text.size()))); }
  std::span<const std::byte> bytes() const { return bytes_; }

 private:
  void PutUnsigned(uint64_t value, size_t width) {
    for (size_t i = 0; i < width; ++i) bytes_.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xff));
  }
  std::vector<std::byte> bytes_;
};

uint32_t ReadU32At(std::span<const std::byte> bytes, size_t offset) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value |= static_cast<uint32_t>(std::to_integer<uint8_t>(bytes[offset + i])) << (8 * i);
  return value;
}

// The span [offset, offset + size) of `archive`, or an Error naming `what` when it does not fit.
std::span<const std::byte> Slice(std::span<const std::byte> archive, uint64_t offset, uint64_t size,
                                 const std::string& context, const std::string& what) {
  if (offset > archive.size() || size > archive.size() - offset) {
    Fail(context, what + " (" + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                      ") lies outside the " + std::to_string(archive.size()) + "-byte file");
  }
  return archive.subspan(static_cast<size_t>(offset), static_cast<size_t>(size));
}

struct CentralDirectoryLocation {
  uint64_t entry_count = 0;
  uint64_t size = 0;
  uint64_t offset = 0;
};

// Finds the end-of-central-directory record, scanning back over a trailing comment.
size_t FindEndOfCentralDirectory(std::span<const std::byte> archive, const std::string& context) {
  if (archive.size() < kEndOfCentralDirectorySize) {
    Fail(context, "not a zip archive (" + std::to_string(archive.size()) + " bytes, too short)");
  }
  const size_t last = archive.size() - kEndOfCentralDirectorySize;
  const size_t first = last > kMaxCommentSize ? last - kMaxCommentSize : 0;
  for (size_t position = last + 1; position-- > first;) {
    if (ReadU32At(archive, position) == kEndOfCentralDirectorySignature) return position;
  }
  Fail(context, "not a zip archive (no end-of-central-directory record)");
}

CentralDirectoryLocation LocateCentralDirectory(std::span<const std::byte> archive, const std::string& context) {
  const size_t end_position = FindEndOfCentralDirectory(archive, context);
  LittleEndianCursor end(archive.subspan(end_position), context, "end-of-central-directory record");
  end.Skip(4);
  const uint16_t disk = end.U16();
  const uint16_t directory_disk = end.U16();
  end.Skip(2);  // entries on this disk
  CentralDirectoryLocation location;
  location.entry_count = end.U16();
  location.size = end.U32();
  location.offset = end.U32();

  const bool has_locator = end_position >= kZip64LocatorSize &&
                           ReadU32At(archive, end_position - kZip64LocatorSize) == kZip64LocatorSignature;
  if (has_locator) {
    LittleEndianCursor locator(archive.subspan(end_position - kZip64LocatorSize, kZip64LocatorSize), context,
                               "zip64 end-of-central-directory locator");
    locator.Skip(8);  // signature, disk with the zip64 record
    const uint64_t record_offset = locator.U64();
    LittleEndianCursor record(Slice(archive, record_offset, kZip64EndOfCentralDirectorySize, context,
                                    "zip64 end-of-central-directory record"),
                              context, "zip64 end-of-central-directory record");
    if (record.U32() != kZip64EndOfCentralDirectorySignature) {
      Fail(context, "bad zip64 end-of-central-directory signature at offset " + std::to_string(record_offset));
    }
    record.Skip(8 + 2 + 2);  // record size, versions
    const uint32_t zip64_disk = record.U32();
    const uint32_t zip64_directory_disk = record.U32();
    record.Skip(8);  // entries on this disk
    location.entry_count = record.U64();
    location.size = record.U64();
    location.offset = record.U64();
    if (zip64_disk != 0 || zip64_directory_disk != 0) Fail(context, "multi-disk zip archives are not supported");
  } else {
    if (location.entry_count == kMarker16 || location.size == kMarker32 || location.offset == kMarker32) {
      Fail(context, "zip64 end-of-central-directory locator is missing");
    }
    if (disk != 0 || directory_disk != 0) Fail(context, "multi-disk zip archives are not supported");
  }
  return location;
}

// Replaces the 32-bit fields holding the marker with the values of the ZIP64 extra field.
void ApplyZip64Extra(std::span<const std::byte> extra, ZipEntryInfo& entry, bool uncompressed_is_marker,
                     bool compressed_is_marker, bool offset_is_marker, const std::string& context) {
  LittleEndianCursor fields(extra, context, "extra field");
  while (fields.remaining() >= 4) {
    const uint16_t id = fields.U16();
    const uint16_t size = fields.U16();
    LittleEndianCursor field(fields.Bytes(size), context, "zip64 extra field");
    if (id != kZip64ExtraFieldId) continue;
    if (uncompressed_is_marker) entry.uncompressed_size = field.U64();
    if (compressed_is_marker) entry.compressed_size = field.U64();
    if (offset_is_marker) entry.local_header_offset = field.U64();
    return;
  }
  if (uncompressed_is_marker || compressed_is_marker || offset_is_marker) {
    Fail(context, "a size or offset refers to a zip64 extra field that is missing");
  }
}

ZipEntryInfo ReadCentralHeader(LittleEndianCursor& directory, const std::string& archive_context, size_t index) {
  const std::string context = archive_context + ": central directory entry " + std::to_string(index);
  if (directory.U32() != kCentralHeaderSignature) Fail(context, "bad signature");
  directory.Skip(2 + 2);  // versions made by / needed
  const uint16_t flags = directory.U16();
  const uint16_t method = directory.U16();
  directory.Skip(2 + 2);  // time, date
  ZipEntryInfo entry;
  entry.crc32 = directory.U32();
  entry.compressed_size = directory.U32();
  entry.uncompressed_size = directory.U32();
  const uint16_t name_size = directory.U16();
  const uint16_t extra_size = directory.U16();
  const uint16_t comment_size = directory.U16();
  directory.Skip(2 + 2 + 4);  // disk, internal and external attributes
  entry.local_header_offset = directory.U32();
  std::span<const std::byte> name = directory.Bytes(name_size);
  entry.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
  const std::string entry_context = archive_context + ": entry '" + entry.name + "'";
  ApplyZip64Extra(directory.Bytes(extra_size), entry, entry.uncompressed_size == kMarker32,
                  entry.compressed_size == kMarker32, entry.local_header_offset == kMarker32, entry_context);
  directory.Skip(comment_size);

  if (flags & kFlagEncrypted) Fail(entry_context, "encrypted entries are not supported");
  if (method == kMethodStored) {
    entry.compression = ZipCompression::kStored;
  } else if (method == kMethodDeflated) {
    entry.compression = ZipCompression::kDeflated;
  } else {
    Fail(entry_context,
         "compression method " + std::to_string(method) + " is not supported (expected stored or deflate)");
  }
  return entry;
}

std::vector<std::byte> Inflate(std::span<const std::byte> input, uint64_t expected_size, const std::string& context) {
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) Fail(context, "cannot initialize zlib");
  struct StreamCloser {
    z_stream* stream;
    ~StreamCloser() { inflateEnd(stream); }
  } closer{&stream};

  std::vector<std::byte> output(static_cast<size_t>(expected_size));
  size_t consumed = 0;
  size_t produced = 0;
  std::byte overflow_probe[1];
  while (true) {
    if (stream.avail_in == 0) {
      const size_t chunk = std::min(input.size() - consumed, kMaxZlibChunk);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(input.data() + consumed));
      stream.avail_in = static_cast<uInt>(chunk);
      consumed += chunk;
    }
    const bool probing = produced == output.size();
    const size_t room = probing ? 1 : std::min(output.size() - produced, kMaxZlibChunk);
    stream.next_out = reinterpret_cast<Bytef*>(probing ? overflow_probe : output.data() + produced);
    stream.avail_out = static_cast<uInt>(room);
    const int status = inflate(&stream, Z_NO_FLUSH);
    const size_t written = room - stream.avail_out;
    if (probing && written > 0) {
      Fail(context, "inflates to more than the " + std::to_string(expected_size) + " bytes the directory declares");
    }
    produced += written;
    if (status == Z_STREAM_END) break;
    if (status == Z_BUF_ERROR && stream.avail_in == 0 && consumed == input.size()) {
      Fail(context, "compressed data is truncated (inflated " + std::to_string(produced) + " of " +
                        std::to_string(expected_size) + " bytes)");
    }
    if (status != Z_OK && status != Z_BUF_ERROR) {
      Fail(context, std::string("corrupt deflate data (") + (stream.msg ? stream.msg : "zlib error") + ")");
    }
  }
  if (produced != expected_size) {
    Fail(context, "inflates to " + std::to_string(produced) + " bytes but the directory declares " +
                      std::to_string(expected_size));
  }
  return output;
}

uint32_t Crc32Of(std::span<const std::byte> bytes, uint32_t crc) {
  while (!bytes.empty()) {
    const size_t chunk = std::min(bytes.size(), kMaxZlibChunk);
    crc = static_cast<uint32_t>(crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(chunk)));
    bytes = bytes.subspan(chunk);
  }
  return crc;
}

}  // namespace

uint32_t Crc32(std::span<const std::span<const std::byte>> pieces) {
  uint32_t crc = static_cast<uint32_t>(crc32(0, nullptr, 0));
  for (std::span<const std::byte> piece : pieces) crc = Crc32Of(piece, crc);
  return crc;
}

ZipReader::ZipReader(std::span<const std::byte> archive, std::string archive_name)
    : archive_(archive), archive_name_(std::move(archive_name)) {
  const CentralDirectoryLocation location = LocateCentralDirectory(archive_, archive_name_);
  LittleEndianCursor directory(Slice(archive_, location.offset, location.size, archive_name_, "central directory"),
                               archive_name_, "central directory");
  entries_.reserve(static_cast<size_t>(std::min<uint64_t>(location.entry_count, location.size / kCentralHeaderSize)));
  for (uint64_t index = 0; index < location.entry_count; ++index) {
    entries_.push_back(ReadCentralHeader(directory, archive_name_, static_cast<size_t>(index)));
  }
}

std::vector<std::byte> ZipReader::Extract(const ZipEntryInfo& entry) const {
  const std::string context = archive_name_ + ": entry '" + entry.name + "'";
  LittleEndianCursor header(Slice(archive_, entry.local_header_offset, kLocalHeaderSize, context, "local header"),
                            context, "local header");
  if (header.U32() != kLocalHeaderSignature) {
    Fail(context, "bad local header signature at offset " + std::to_string(entry.local_header_offset));
  }
  header.Skip(2 + 2 + 2 + 2 + 2 + 4 + 4 + 4);  // version .. sizes: the central directory is authoritative
  const uint64_t name_size = header.U16();
  const uint64_t extra_size = header.U16();
  const uint64_t data_offset = entry.local_header_offset + kLocalHeaderSize + name_size + extra_size;
  std::span<const std::byte> data = Slice(archive_, data_offset, entry.compressed_size, context, "data");

  std::vector<std::byte> contents;
  if (entry.compression == ZipCompression::kStored) {
    if (entry.compressed_size != entry.uncompressed_size) {
      Fail(context, "stored entry has compressed size " + std::to_string(entry.compressed_size) +
                        " but uncompressed size " + std::to_string(entry.uncompressed_size));
    }
    contents.assign(data.begin(), data.end());
  } else {
    if (entry.uncompressed_size / kMaxDeflateRatio > entry.compressed_size + 1) {
      Fail(context, "declares " + std::to_string(entry.uncompressed_size) + " bytes inflated from only " +
                        std::to_string(entry.compressed_size) + " compressed bytes");
    }
    contents = Inflate(data, entry.uncompressed_size, context);
  }
  const std::span<const std::byte> pieces[] = {contents};
  const uint32_t crc = Crc32(pieces);
  if (crc != entry.crc32) {
    Fail(context, "CRC-32 mismatch (data is corrupt): computed " + std::to_string(crc) + ", directory says " +
                      std::to_string(entry.crc32));
  }
  return contents;
}

ZipWriter::ZipWriter(std::ostream& out, std::string archive_name, bool force_zip64)
    : out_(out), archive_name_(std::move(archive_name)), force_zip64_(force_zip64) {}

void ZipWriter::WriteBytes(std::span<const std::byte> bytes) {
  out_.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out_) Fail(archive_name_, "write failed");
  offset_ += bytes.size();
}

void ZipWriter::AddStoredEntry(const std::string& name, std::span<const std::span<const std::byte>> pieces) {
  Check(!finished_, archive_name_ + ": entry '" + name + "' added after the archive was finished");
  Check(!name.empty(), archive_name_ + ": entry names must not be empty");
  Check(name.size() <= kMarker16, archive_name_ + ": entry name is longer than 65535 bytes");
  Check(names_.insert(name).second, archive_name_ + ": duplicate entry '" + name + "'");
  ZipEntryInfo entry;
  entry.name = name;
  entry.crc32 = Crc32(pieces);
  for (std::span<const std::byte> piece : pieces) entry.uncompressed_size += piece.size();
  entry.compressed_size = entry.uncompressed_size;
  entry.local_header_offset = offset_;
  const bool zip64 = force_zip64_ || entry.uncompressed_size >= kMarker32;
  const bool utf8 = std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });

  LittleEndianBuffer header;
  header.U32(kLocalHeaderSignature);
  header.U16(zip64 ? kVersionZip64 : kVersionDefault);
  header.U16(utf8 ? kFlagUtf8Name : 0);
  header.U16(kMethodStored);
  header.U16(0);  // time 00:00:00
  header.U16(kDosDate1980January1);
  header.U32(entry.crc32);
  header.U32(zip64 ? kMarker32 : entry.compressed_size);
  header.U32(zip64 ? kMarker32 : entry.uncompressed_size);
  header.U16(name.size());
  header.U16(zip64 ? 4 + 16 : 0);
  header.Text(name);
  if (zip64) {
    header.U16(kZip64ExtraFieldId);
    header.U16(16);
    header.U64(entry.uncompressed_size);
    header.U64(entry.compressed_size);
  }
  WriteBytes(header.bytes());
  for (std::span<const std::byte> piece : pieces) WriteBytes(piece);
  entries_.push_back(std::move(entry));
}

void ZipWriter::Finish() {
  Check(!finished_, archive_name_ + ": archive finished twice");
  finished_ = true;
  const uint64_t directory_offset = offset_;
  for (const ZipEntryInfo& entry : entries_) {
    const bool sizes_in_zip64 = force_zip64_ || entry.uncompressed_size >= kMarker32;
    const bool offset_in_zip64 = entry.local_header_offset >= kMarker32;
    const bool utf8 =
        std::any_of(entry.name.begin(), entry.name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    LittleEndianBuffer zip64_extra;
    if (sizes_in_zip64) {
      zip64_extra.U64(entry.uncompressed_size);
      zip64_extra.U64(entry.compressed_size);
    }
    if (offset_in_zip64) zip64_extra.U64(entry.local_header_offset);
    const size_t zip64_extra_size = zip64_extra.bytes().size();

    LittleEndianBuffer header;
    header.U32(kCentralHeaderSignature);
    header.U16(zip64_extra_size > 0 ? kVersionZip64 : kVersionDefault);  // made by (MS-DOS)
    header.U16(zip64_extra_size > 0 ? kVersionZip64 : kVersionDefault);  // needed
    header.U16(utf8 ? kFlagUtf8Name : 0);
    header.U16(kMethodStored);
    header.U16(0);
    header.U16(kDosDate1980January1);
    header.U32(entry.crc32);
    header.U32(sizes_in_zip64 ? kMarker32 : entry.compressed_size);
    header.U32(sizes_in_zip64 ? kMarker32 : entry.uncompressed_size);
    header.U16(entry.name.size());
    header.U16(zip64_extra_size > 0 ? 4 + zip64_extra_size : 0);
    header.U16(0);  // comment
    header.U16(0);  // disk
    header.U16(0);  // internal attributes
    header.U32(0);  // external attributes
    header.U32(offset_in_zip64 ? kMarker32 : entry.local_header_offset);
    header.Text(entry.name);
    if (zip64_extra_size > 0) {
      header.U16(kZip64ExtraFieldId);
      header.U16(zip64_extra_size);
      header.Bytes(zip64_extra.bytes());
    }
    WriteBytes(header.bytes());
  }
  const uint64_t directory_size = offset_ - directory_offset;
  const uint64_t entry_count = entries_.size();
  const bool zip64_end = entry_count >= kMarker16 || directory_size >= kMarker32 || directory_offset >= kMarker32;

  LittleEndianBuffer end;
  if (zip64_end) {
    const uint64_t record_offset = offset_;
    end.U32(kZip64EndOfCentralDirectorySignature);
    end.U64(kZip64EndOfCentralDirectorySize - 12);
    end.U16(kVersionZip64);
    end.U16(kVersionZip64);
    end.U32(0);  // this disk
    end.U32(0);  // disk with the directory
    end.U64(entry_count);
    end.U64(entry_count);
    end.U64(directory_size);
    end.U64(directory_offset);
    end.U32(kZip64LocatorSignature);
    end.U32(0);
    end.U64(record_offset);
    end.U32(1);  // total disks
  }
  end.U32(kEndOfCentralDirectorySignature);
  end.U16(0);
  end.U16(0);
  end.U16(zip64_end ? kMarker16 : entry_count);
  end.U16(zip64_end ? kMarker16 : entry_count);
  end.U32(zip64_end ? kMarker32 : directory_size);
  end.U32(zip64_end ? kMarker32 : directory_offset);
  end.U16(0);  // comment
  WriteBytes(end.bytes());
  out_.flush();
  if (!out_) Fail(archive_name_, "write failed");
}

}  // namespace collage
