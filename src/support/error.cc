#include "support/error.h"

namespace collage {

std::string SourceLocation::ToString() const {
  if (!IsKnown()) return "";
  std::string position = std::to_string(line) + ":" + std::to_string(column);
  return file.empty() ? position : file + ":" + position;
}

}  // namespace collage
