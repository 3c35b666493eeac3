// numpy's .npz files: a ZIP archive with one .npy file per array ("<name>.npy"), as
// np.savez and np.savez_compressed write them. Arrays keep their archive order.
//
// Reading accepts stored and deflate-compressed entries, ZIP64 records and data
// descriptors; writing produces stored entries and .npy version 1.0 headers (ZIP64 where
// sizes need it). Errors are one line naming the file and the entry, e.g.
//   "x.npz: entry 'a.npy': header says 400 bytes of data (f32 (10, 10)) but only 12 remain".
// See io/npy.h for the supported dtypes.
#pragma once

#include <cstddef>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/tensor.h"

namespace collage {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// Reads every array; names are the entry names without the ".npy" suffix.
NamedTensors ReadNpz(const std::string& path);
// The same for an archive in memory; `archive_name` prefixes error messages.
NamedTensors ReadNpzFromMemory(std::span<const std::byte> archive, const std::string& archive_name);

// Writes `arrays` (names non-empty and unique) as entries "<name>.npy".
void WriteNpz(const std::string& path, const NamedTensors& arrays);
void WriteNpz(std::ostream& out, const NamedTensors& arrays, const std::string& archive_name);
std::vector<std::byte> WriteNpzToMemory(const NamedTensors& arrays);

}  // namespace collage
