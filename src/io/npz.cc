#include "io/npz.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "io/npy.h"
#include "io/zip_archive.h"
#include "support/error.h"

namespace collage {
namespace {

constexpr std::string_view kNpySuffix = ".npy";

std::string ArrayNameOfEntry(const std::string& entry_name) {
  if (entry_name.size() > kNpySuffix.size() && entry_name.ends_with(kNpySuffix)) {
    return entry_name.substr(0, entry_name.size() - kNpySuffix.size());
  }
  return entry_name;
}

std::vector<std::byte> ReadWholeFile(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  std::vector<std::byte> contents;
  std::byte buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) {
    contents.insert(contents.end(), buffer, buffer + count);
  }
  if (std::ferror(file.get())) throw Error("cannot read '" + path + "': " + std::strerror(errno));
  return contents;
}

}  // namespace

NamedTensors ReadNpzFromMemory(std::span<const std::byte> archive, const std::string& archive_name) {
  ZipReader reader(archive, archive_name);
  NamedTensors arrays;
  std::set<std::string> names;
  for (const ZipEntryInfo& entry : reader.entries()) {
    const std::string context = archive_name + ": entry '" + entry.name + "'";
    std::string name = ArrayNameOfEntry(entry.name);
    if (!names.insert(name).second) throw Error(context + ": array '" + name + "' appears twice");
    arrays.emplace_back(std::move(name), DecodeNpy(reader.Extract(entry), context));
  }
  return arrays;
}

NamedTensors ReadNpz(const std::string& path) { return ReadNpzFromMemory(ReadWholeFile(path), path); }

void WriteNpz(std::ostream& out, const NamedTensors& arrays, const std::string& archive_name) {
  // Everything that can be rejected is checked before the first byte is written.
  std::vector<std::string> headers;
  std::set<std::string> names;
  for (const auto& [name, tensor] : arrays) {
    const std::string context = archive_name + ": array '" + name + "'";
    Check(!name.empty(), archive_name + ": array names must not be empty");
    Check(names.insert(name).second, context + " appears twice");
    Check(tensor.defined(), context + ": the tensor is undefined");
    headers.push_back(EncodeNpyHeader(tensor.dtype(), tensor.shape(), context));
  }
  ZipWriter writer(out, archive_name);
  for (size_t i = 0; i < arrays.size(); ++i) {
    const Tensor& tensor = arrays[i].second;
    const std::span<const std::byte> pieces[] = {
        std::as_bytes(std::span(headers[i].data(), headers[i].size())),
        std::span(static_cast<const std::byte*>(tensor.raw_data()), tensor.NumBytes()),
    };
    writer.AddStoredEntry(arrays[i].first + std::string(kNpySuffix), pieces);
  }
  writer.Finish();
}

void WriteNpz(const std::string& path, const NamedTensors& arrays) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("cannot create '" + path + "': " + std::strerror(errno));
  try {
    WriteNpz(out, arrays, path);
  } catch (...) {
    out.close();
    std::remove(path.c_str());
    throw;
  }
}

std::vector<std::byte> WriteNpzToMemory(const NamedTensors& arrays) {
  std::ostringstream out(std::ios::binary);
  WriteNpz(out, arrays, "<memory>");
  const std::string bytes = std::move(out).str();
  const auto* begin = reinterpret_cast<const std::byte*>(bytes.data());
  return std::vector<std::byte>(begin, begin + bytes.size());
}

}  // namespace collage
