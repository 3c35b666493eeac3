// Runs the system C++ compiler on generated translation units. Shared objects are written
// to a temporary name and renamed into place, so concurrent processes never see partial
// files. Failures become Errors carrying the compiler's first error line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collage::native {

struct CompilerConfig {
  std::string compiler = "c++";
  // Appended after the standard flags (tests use it to provoke failures).
  std::vector<std::string> extra_flags;
};

// The flags every kernel is compiled with (part of the cache key).
std::vector<std::string> CompilerFlags(const CompilerConfig& config);

// The first line of `<compiler> --version` (part of the cache key); "unknown" when it fails.
std::string CompilerVersion(const CompilerConfig& config);

// Compiles `source_path` into the shared object `output_path` with `include_dir` on the
// include path. Throws Error("native: compiler failed: <first error line>").
void CompileSharedObject(const CompilerConfig& config, const std::string& source_path, const std::string& include_dir,
                         const std::string& output_path);

// Compiler processes started by this process so far (tests check cache hits with it).
uint64_t CompilerInvocations();

}  // namespace collage::native
