// The on-disk cache of compiled kernels. A kernel's key hashes the generator version, the
// compiler's version and flags, the runtime headers and the kernel's source (which spells
// out every shape and attribute of its group), so a key names exactly one machine code.
//
// Layout of the cache folder: include-<hash>/ holds the runtime headers; batch-<hash>.so
// holds the kernels of one compiler invocation and batch-<hash>.cc their source (kept for
// reading the generated code); <key>.kernel names the batch holding the
// kernel of that key. Every file is written to a temporary name and renamed into place, so
// concurrent processes sharing the folder are safe. Loaded shared objects stay loaded for
// the life of the process.
#pragma once

#include <string>
#include <vector>

#include "backend/native/compiler_driver.h"
#include "backend/native/group_codegen.h"
#include "backend/native/runtime/native_threads.h"

namespace collage::native {

// The entry point of a generated kernel (see group_codegen.h).
using KernelFunction = const char* (*)(void* const* args, const ::native::Threads* threads);

// A loaded kernel or why it is missing.
struct LoadedKernel {
  KernelFunction function = nullptr;
  std::string error;
};

// Bump when the generated code changes meaning without its text changing.
inline constexpr const char* kGeneratorVersion = "native-2";

// A hash of the runtime headers generated kernels include (runtime_headers.h): part of every
// kernel's cache key, since kernels compute with them.
std::string RuntimeHeadersKey();

// $COLLAGE_CACHE_DIR/native, else ~/.cache/collage/native, else the user's private
// temporary cache folder (support/private_directory.h) /native.
std::string DefaultNativeCacheDir();

class KernelCache {
 public:
  KernelCache(std::string dir, CompilerConfig config);

  // Loads every kernel (symbols are given as "@SYMBOL@" in the source and replaced by a name
  // derived from the key), compiling the missing ones: deduplicated, several per translation
  // unit, the translation units compiled by parallel compiler processes. A batch that fails
  // is retried kernel by kernel so each error belongs to its own kernel.
  std::vector<LoadedKernel> Load(const std::vector<GeneratedKernel>& kernels) const;

 private:
  std::string dir_;
  CompilerConfig config_;
};

}  // namespace collage::native
