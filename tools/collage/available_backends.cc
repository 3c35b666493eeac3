#include "available_backends.h"

#include "arguments.h"
#include "pipeline/request_checks.h"

namespace collage::cli {

std::vector<std::string> ParseBackendList(const std::string& text, const std::string& command) {
  std::vector<std::string> names = SplitList(text, "--backends", command);
  CheckForCommand(command, [&] { CheckBackendNames(names); });
  return names;
}

}  // namespace collage::cli
