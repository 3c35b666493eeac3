#include "pipeline/text_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "support/error.h"

namespace collage {

void WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw Error("cannot create '" + path + "': " + std::strerror(errno));
  file << text;
  file.close();
  if (!file) throw Error("cannot write '" + path + "'");
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("cannot read '" + path + "': " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(file), {});
}

}  // namespace collage
