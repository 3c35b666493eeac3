// The backends of this build, described, and the process set-up their libraries need.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace collage::api {

struct BackendInfo {
  std::string name;    // "onednn"
  std::string kind;    // "library", "codegen", ...
  std::string device;  // "cpu"
  size_t patterns = 0;  // entries of its pattern table
  std::vector<std::string> precisions;  // the element types it computes in: "f32" first, then the reduced ones
};

// In the registry's order (that of AvailableBackends()).
std::vector<BackendInfo> DescribeBackends();

// The reduced-precision instruction sets this CPU has ("avx512_vnni, amx_int8" or "none").
std::string ReducedPrecisionInstructionSets();

// Some backends' libraries read settings from the environment once, when they are loaded: call
// this first in main. When the environment lacks one, it executes the program again with `argv`
// and the settings added; it returns when nothing was missing (or the program could not be
// executed again).
void ReexecuteWithBackendEnvironment(char** argv);

}  // namespace collage::api
