// Checks a backend against the reference interpreter: compile a partition function, run it on
// seeded random inputs, compare with Evaluate. Every backend's tests use these.
#pragma once

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "backend/backend.h"
#include "runtime/compare.h"

namespace collage::testing {

// The @main function of a text-IR module, type-checked.
Function ParseMainFunction(const std::string& text);

// Compiles `function` with `backend` (threads as given) and compares its result on random
// inputs of seed `seed` with the reference interpreter's. Fails the test on a compile error,
// a run error or a mismatch, naming which.
::testing::AssertionResult MatchesReference(const Backend& backend, const Function& function, uint64_t seed = 0,
                                            int threads = 2,
                                            const std::optional<Tolerance>& tolerance = std::nullopt);

}  // namespace collage::testing
