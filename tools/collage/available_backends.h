// Checking --backends lists against the backends of this build (api::AvailableBackends()).
#pragma once

#include <string>
#include <vector>

namespace collage::cli {

// Splits a --backends value at commas; an unknown or repeated name is a UsageError (for
// `command`) that lists the available backends.
std::vector<std::string> ParseBackendList(const std::string& text, const std::string& command);

}  // namespace collage::cli
