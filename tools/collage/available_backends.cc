#include "available_backends.h"

#include "arguments.h"
#include "collage/compile_options.h"

namespace collage::cli {

std::vector<std::string> ParseBackendList(const std::string& text, const std::string& command) {
  std::vector<std::string> names = SplitList(text, "--backends", command);
  CheckForCommand(command, [&] { api::CheckCompileOptions({.backends = names}); });
  return names;
}

}  // namespace collage::cli
