// NumPy's .npz files (a ZIP archive of .npy arrays, stored or deflated), as `collage run
// --inputs` reads them and `--outputs` writes them. A missing, unwritable or malformed file is a
// UsageError naming the file, the array and what was expected.
#pragma once

#include <string>
#include <vector>

#include "collage/tensor.h"

namespace collage::api {

// The arrays in the archive's order, named without ".npy".
std::vector<NamedTensor> ReadNpz(const std::string& path);
// Stored (uncompressed), one "<name>.npy" per tensor, in order.
void WriteNpz(const std::string& path, const std::vector<NamedTensor>& arrays);

}  // namespace collage::api
