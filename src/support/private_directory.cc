#include "support/private_directory.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "support/error.h"

namespace collage {
namespace {

std::string OctalMode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

}  // namespace

void EnsurePrivateDirectory(const std::string& path) {
  const std::string folder = "cache folder '" + path + "'";
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    throw Error("cannot create the " + folder + ": " + std::strerror(errno));
  }
  struct stat status;
  if (lstat(path.c_str(), &status) != 0) throw Error("cannot inspect the " + folder + ": " + std::strerror(errno));
  const std::string refusal = ": refusing to use it (set HOME to a folder of yours)";
  if (S_ISLNK(status.st_mode)) throw Error(folder + " is a symbolic link" + refusal);
  if (!S_ISDIR(status.st_mode)) throw Error(folder + " is not a folder" + refusal);
  if (status.st_uid != geteuid()) {
    throw Error(folder + " belongs to user " + std::to_string(status.st_uid) + ", not to user " +
                std::to_string(geteuid()) + refusal);
  }
  if ((status.st_mode & 077) != 0) {
    throw Error(folder + " has mode " + OctalMode(status.st_mode) + ", open to other users (expected 0700)" + refusal);
  }
}

std::string PrivateTemporaryCacheDirectory() {
  const char* temporary = std::getenv("TMPDIR");
  const std::string root = temporary != nullptr && temporary[0] == '/' ? temporary : "/tmp";
  const std::string path = root + "/collage-cache-" + std::to_string(geteuid());
  EnsurePrivateDirectory(path);
  return path;
}

}  // namespace collage
