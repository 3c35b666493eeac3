// Escaping text for HTML element content and attribute values.
#pragma once

#include <string>

namespace collage {

// Replaces & < > " ' by their character references.
std::string HtmlEscape(const std::string& text);

}  // namespace collage
