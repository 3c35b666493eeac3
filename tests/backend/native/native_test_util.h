// Helpers of the native backend tests: a kernel cache folder inside the build tree (so test
// runs reuse compiled kernels and never touch the user's cache) and comparison of a compiled
// executable with the reference interpreter.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "build_paths.h"
#include "backend/backend.h"
#include "ir/expr.h"
#include "support/value.h"

namespace collage::testing {

// COLLAGE_BINARY_DIR/test-cache: the cache_dir native tests compile with.
std::string NativeTestCacheDir();

CompileOptions NativeTestOptions(int threads = 2);

// `function` compiled by the registered native backend (NativeTestOptions(2)) and run on `args`.
Value RunOnNative(const Function& function, const std::vector<Value>& args);

// Runs `executable` (compiled from `function`) on seeded random inputs and compares with the
// reference interpreter.
::testing::AssertionResult ExecutableMatchesReference(Executable& executable, const Function& function,
                                                      uint64_t seed = 0);

}  // namespace collage::testing
