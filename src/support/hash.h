// Hash helpers: a 64-bit mixing combine and hashing of plain values and byte ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace collage {

inline size_t HashCombine(size_t seed, size_t value) {
  // 64-bit variant of boost's hash_combine with a stronger multiplier.
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 12) + (seed >> 4);
  return seed * 0xbf58476d1ce4e5b9ULL;
}

template <typename T>
size_t HashValue(const T& value) {
  return std::hash<T>{}(value);
}

// FNV-1a: stable across runs, builds and machines, unlike std::hash; for hashes that are
// stored in files.
inline uint64_t StableHash(std::string_view text, uint64_t seed = 1469598103934665603ull) {
  uint64_t hash = seed;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

inline size_t HashBytes(const void* data, size_t size) {
  return std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(data), size));
}

}  // namespace collage
