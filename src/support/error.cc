#include "support/error.h"

#include "support/one_line_text.h"

namespace collage {

std::string SourceLocation::ToString() const {
  if (!IsKnown()) return "";
  std::string position = std::to_string(line) + ":" + std::to_string(column);
  return file.empty() ? position : file + ":" + position;
}

ParseError::ParseError(const SourceLocation& location, const std::string& message)
    : Error(OneLineText(location.IsKnown() ? location.ToString() + ": " + message : message)),
      location_(location) {}

}  // namespace collage
