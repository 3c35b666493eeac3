// Helpers shared by the io tests: byte conversions and hand-built archives.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "io/zip_archive.h"

namespace collage::testing {

inline std::vector<std::byte> ToBytes(const std::string& text) {
  const auto* begin = reinterpret_cast<const std::byte*>(text.data());
  return std::vector<std::byte>(begin, begin + text.size());
}

inline std::string ToString(std::span<const std::byte> bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Where `pattern` first occurs in `bytes` (bytes.size() when it does not).
inline size_t FindBytes(std::span<const std::byte> bytes, const std::string& pattern) {
  const auto* begin = reinterpret_cast<const std::byte*>(pattern.data());
  return static_cast<size_t>(std::search(bytes.begin(), bytes.end(), begin, begin + pattern.size()) - bytes.begin());
}

// A .npy v1.0 file with the given header dict text (unpadded) and data bytes.
inline std::string MakeNpy(const std::string& dict, const std::string& data) {
  const std::string header = dict + "\n";
  std::string npy = std::string("\x93NUMPY\x01\x00", 8);
  npy += static_cast<char>(header.size() & 0xff);
  npy += static_cast<char>(header.size() >> 8);
  return npy + header + data;
}

// A zip archive of stored entries, written with ZipWriter.
inline std::vector<std::byte> MakeZip(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::ostringstream out(std::ios::binary);
  ZipWriter writer(out, "test.zip");
  for (const auto& [name, contents] : entries) {
    const std::span<const std::byte> pieces[] = {std::as_bytes(std::span(contents.data(), contents.size()))};
    writer.AddStoredEntry(name, pieces);
  }
  writer.Finish();
  return ToBytes(out.str());
}

}  // namespace collage::testing
