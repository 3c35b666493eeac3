#include "output_paths.h"

#include <sys/stat.h>

#include <filesystem>

#include "support/error.h"

namespace collage::cli {
namespace {

std::filesystem::path CanonicalForm(const std::string& path) {
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
  return error ? std::filesystem::absolute(path).lexically_normal() : canonical;
}

}  // namespace

bool SameFile(const std::string& a, const std::string& b) {
  struct stat a_status, b_status;
  const bool a_exists = stat(a.c_str(), &a_status) == 0;
  const bool b_exists = stat(b.c_str(), &b_status) == 0;
  if (a_exists && b_exists) return a_status.st_dev == b_status.st_dev && a_status.st_ino == b_status.st_ino;
  if (a_exists != b_exists) return false;
  return CanonicalForm(a) == CanonicalForm(b);
}

void RefuseOutputsOverInputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    const NamedPath& output = outputs[o];
    if (output.path.empty()) continue;
    auto refuse_if_same = [&](const NamedPath& other) {
      if (other.path.empty() || !SameFile(output.path, other.path)) return;
      throw Error(output.role + " '" + output.path + "' is the same file as " + other.role + " '" + other.path +
                  "': refusing to overwrite it");
    };
    for (const NamedPath& input : inputs) refuse_if_same(input);
    for (size_t earlier = 0; earlier < o; ++earlier) refuse_if_same(outputs[earlier]);
  }
}

}  // namespace collage::cli
