#include "collage/npz.h"

#include "api/error_translation.h"
#include "api/tensor_conversion.h"
#include "io/npz.h"

namespace collage::api {

std::vector<NamedTensor> ReadNpz(const std::string& path) {
  std::vector<NamedTensor> arrays;
  for (const auto& [name, tensor] : Translating<UsageError>([&] { return collage::ReadNpz(path); })) {
    arrays.push_back({name, FromLibraryTensor(tensor)});
  }
  return arrays;
}

void WriteNpz(const std::string& path, const std::vector<NamedTensor>& arrays) {
  NamedTensors library_arrays;
  for (const NamedTensor& array : arrays) library_arrays.emplace_back(array.name, ToLibraryTensor(array.tensor));
  Translating<UsageError>([&] { collage::WriteNpz(path, library_arrays); });
}

}  // namespace collage::api
