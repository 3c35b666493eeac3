#include "io/zip_archive.h"

#include <zip.h>

#include <cctype>
#include <ctime>

#include "support/error.h"
#include "support/one_line_text.h"

namespace collage {
namespace {

// The smallest archive: an end-of-central-directory record alone (22 bytes).
constexpr size_t kEndOfCentralDirectorySize = 22;
// The largest ratio deflate can reach is about 1032:1; a larger claim is corrupt.
constexpr uint64_t kMaxDeflateRatio = 1032;
constexpr size_t kCopyChunk = 1 << 16;

[[noreturn]] void Fail(const std::string& context, const std::string& message) {
  throw Error(OneLineText(context + ": " + message));
}

// libzip's message for `error`, starting in lower case as the rest of a one-line error does.
std::string Describe(zip_error_t* error) {
  if (zip_error_code_zip(error) == ZIP_ER_CRC) return "CRC-32 mismatch (data is corrupt)";
  std::string message = zip_error_strerror(error);
  if (!message.empty()) message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return message;
}

// Frees a libzip error record on every path out of a scope.
struct ErrorRecord {
  zip_error_t error;
  ErrorRecord() { zip_error_init(&error); }
  ~ErrorRecord() { zip_error_fini(&error); }
};

// 1980-01-01 00:00 local time, the earliest date a ZIP entry can carry: written for every entry
// so that equal arrays give equal archives.
time_t EarliestZipTime() {
  std::tm time{};
  time.tm_year = 80;
  time.tm_mday = 1;
  time.tm_isdst = -1;
  return std::mktime(&time);
}

// An archive without entries: its end-of-central-directory record (libzip writes nothing for it).
void WriteEmptyArchive(std::ostream& out) {
  char record[kEndOfCentralDirectorySize] = {'P', 'K', 5, 6};
  out.write(record, sizeof record);
}

}  // namespace

struct ZipReader::Archive {
  zip_t* zip = nullptr;
  ~Archive() {
    if (zip != nullptr) zip_discard(zip);
  }
};

ZipReader::ZipReader(std::span<const std::byte> archive, std::string archive_name)
    : archive_(std::make_unique<Archive>()), archive_name_(std::move(archive_name)) {
  if (archive.size() < kEndOfCentralDirectorySize) {
    Fail(archive_name_, "not a zip archive (" + std::to_string(archive.size()) + " bytes, too short)");
  }
  ErrorRecord record;
  zip_source_t* source = zip_source_buffer_create(archive.data(), archive.size(), 0, &record.error);
  if (source == nullptr) Fail(archive_name_, Describe(&record.error));
  archive_->zip = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &record.error);
  if (archive_->zip == nullptr) {
    zip_source_free(source);
    Fail(archive_name_, Describe(&record.error));
  }
  const zip_int64_t count = zip_get_num_entries(archive_->zip, 0);
  for (zip_int64_t index = 0; index < count; ++index) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive_->zip, static_cast<zip_uint64_t>(index), ZIP_FL_ENC_RAW, &stat) != 0) {
      Fail(archive_name_ + ": central directory entry " + std::to_string(index), Describe(zip_get_error(archive_->zip)));
    }
    ZipEntryInfo entry;
    entry.index = static_cast<uint64_t>(index);
    entry.name = stat.name;
    entry.crc32 = stat.crc;
    entry.compressed_size = stat.comp_size;
    entry.uncompressed_size = stat.size;
    const std::string context = archive_name_ + ": entry '" + entry.name + "'";
    if (stat.encryption_method != ZIP_EM_NONE) Fail(context, "encrypted entries are not supported");
    if (stat.comp_method == ZIP_CM_STORE) {
      entry.compression = ZipCompression::kStored;
    } else if (stat.comp_method == ZIP_CM_DEFLATE) {
      entry.compression = ZipCompression::kDeflated;
    } else {
      Fail(context, "compression method " + std::to_string(stat.comp_method) +
                        " is not supported (expected stored or deflate)");
    }
    if (entry.compressed_size > archive.size()) {
      Fail(context, "declares " + std::to_string(entry.compressed_size) + " bytes of data in a " +
                        std::to_string(archive.size()) + "-byte file");
    }
    if (entry.compression == ZipCompression::kStored && entry.compressed_size != entry.uncompressed_size) {
      Fail(context, "stored entry has compressed size " + std::to_string(entry.compressed_size) +
                        " but uncompressed size " + std::to_string(entry.uncompressed_size));
    }
    if (entry.compression == ZipCompression::kDeflated &&
        entry.uncompressed_size / kMaxDeflateRatio > entry.compressed_size + 1) {
      Fail(context, "declares " + std::to_string(entry.uncompressed_size) + " bytes inflated from only " +
                        std::to_string(entry.compressed_size) + " compressed bytes");
    }
    entries_.push_back(std::move(entry));
  }
}

ZipReader::~ZipReader() = default;

std::vector<std::byte> ZipReader::Extract(const ZipEntryInfo& entry) const {
  const std::string context = archive_name_ + ": entry '" + entry.name + "'";
  zip_file_t* file = zip_fopen_index(archive_->zip, entry.index, 0);
  if (file == nullptr) Fail(context, Describe(zip_get_error(archive_->zip)));
  struct FileCloser {
    zip_file_t* file;
    ~FileCloser() { zip_fclose(file); }
  } closer{file};

  std::vector<std::byte> contents(static_cast<size_t>(entry.uncompressed_size));
  size_t produced = 0;
  while (produced < contents.size()) {
    const zip_int64_t read = zip_fread(file, contents.data() + produced, contents.size() - produced);
    if (read < 0) Fail(context, Describe(zip_file_get_error(file)));
    if (read == 0) {
      Fail(context, "data is truncated (read " + std::to_string(produced) + " of " +
                        std::to_string(contents.size()) + " bytes)");
    }
    produced += static_cast<size_t>(read);
  }
  // Reading past the end checks the CRC-32 and that nothing follows.
  std::byte probe[1];
  const zip_int64_t beyond = zip_fread(file, probe, sizeof probe);
  if (beyond < 0) Fail(context, Describe(zip_file_get_error(file)));
  if (beyond > 0) {
    Fail(context, "holds more than the " + std::to_string(contents.size()) + " bytes the directory declares");
  }
  return contents;
}

ZipWriter::ZipWriter(std::ostream& out, std::string archive_name)
    : out_(out), archive_name_(std::move(archive_name)) {}

void ZipWriter::AddStoredEntry(const std::string& name, std::span<const std::span<const std::byte>> pieces) {
  Check(!finished_, archive_name_ + ": entry '" + name + "' added after the archive was finished");
  Check(!name.empty(), archive_name_ + ": entry names must not be empty");
  Check(name.size() <= 0xffff, archive_name_ + ": entry name is longer than 65535 bytes");
  Check(names_.insert(name).second, archive_name_ + ": duplicate entry '" + name + "'");
  Entry entry{name, {}};
  for (std::span<const std::byte> piece : pieces) entry.contents.insert(entry.contents.end(), piece.begin(), piece.end());
  entries_.push_back(std::move(entry));
}

void ZipWriter::Finish() {
  Check(!finished_, archive_name_ + ": archive finished twice");
  finished_ = true;
  if (entries_.empty()) {
    WriteEmptyArchive(out_);
  } else {
    ErrorRecord record;
    zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &record.error);
    if (buffer == nullptr) Fail(archive_name_, Describe(&record.error));
    struct SourceReleaser {
      zip_source_t* source;
      ~SourceReleaser() { zip_source_free(source); }
    } releaser{buffer};
    zip_t* zip = zip_open_from_source(buffer, ZIP_TRUNCATE, &record.error);
    if (zip == nullptr) Fail(archive_name_, Describe(&record.error));
    zip_source_keep(buffer);  // read back after zip_close
    const time_t modified = EarliestZipTime();
    for (const Entry& entry : entries_) {
      zip_source_t* contents = zip_source_buffer(zip, entry.contents.data(), entry.contents.size(), 0);
      const zip_int64_t index = contents == nullptr ? -1 : zip_file_add(zip, entry.name.c_str(), contents, 0);
      if (index < 0) {
        if (contents != nullptr) zip_source_free(contents);
        const std::string message = Describe(zip_get_error(zip));
        zip_discard(zip);
        Fail(archive_name_ + ": entry '" + entry.name + "'", message);
      }
      if (zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) != 0 ||
          zip_file_set_mtime(zip, static_cast<zip_uint64_t>(index), modified, 0) != 0) {
        const std::string message = Describe(zip_get_error(zip));
        zip_discard(zip);
        Fail(archive_name_ + ": entry '" + entry.name + "'", message);
      }
    }
    if (zip_close(zip) != 0) {
      const std::string message = Describe(zip_get_error(zip));
      zip_discard(zip);
      Fail(archive_name_, message);
    }
    if (zip_source_open(buffer) != 0) Fail(archive_name_, Describe(zip_source_error(buffer)));
    char chunk[kCopyChunk];
    zip_int64_t read;
    while ((read = zip_source_read(buffer, chunk, sizeof chunk)) > 0) out_.write(chunk, read);
    const bool read_failed = read < 0;
    zip_source_close(buffer);
    if (read_failed) Fail(archive_name_, Describe(zip_source_error(buffer)));
  }
  out_.flush();
  if (!out_) Fail(archive_name_, "write failed");
}

}  // namespace collage
