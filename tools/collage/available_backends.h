// The backends this build of the CLI can run, and the checking of --backends lists.
// Only the reference interpreter exists so far; the backend registry will replace this list.
#pragma once

#include <string>
#include <vector>

namespace collage::cli {

struct BackendDescription {
  std::string name;    // what --backends takes
  std::string kind;    // "interpreter", "library", "graph runtime", "codegen"
  std::string device;  // "cpu", "cuda"
};

const std::vector<BackendDescription>& AvailableBackends();

// Splits a --backends value at commas; an unknown or repeated name is a UsageError (for
// `command`) that lists the available backends.
std::vector<std::string> ParseBackendList(const std::string& text, const std::string& command);

}  // namespace collage::cli
