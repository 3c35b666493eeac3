#include "backend/backend_source_hash.h"

namespace collage {

std::string BackendSourceHash(const std::string& backend_name) {
  const auto& hashes = BackendSourceHashes();
  const auto it = hashes.find(backend_name);
  return it == hashes.end() ? std::string() : it->second;
}

}  // namespace collage
