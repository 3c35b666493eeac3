// Quoting untrusted text (a token of a parsed file, a header read from an archive) inside a
// one-line error message: line breaks, tabs and other control characters are escaped
// (\n, \t, \xNN) so that the message stays on one line, as the CLI prints it.
#pragma once

#include <string>
#include <string_view>

namespace collage {

std::string OneLineText(std::string_view text);

}  // namespace collage
