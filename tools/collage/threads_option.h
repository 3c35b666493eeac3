// The --threads option of the commands that run a model: worker threads for every backend.
// The value is bounded by a small multiple of the machine's hardware threads: far more
// threads than cores only makes every backend's pool wait on the others, and tuning with
// them ends in time-outs.
#pragma once

#include <cstdint>

#include "arguments.h"

namespace collage::cli {

// The most --threads accepts per hardware thread.
inline constexpr uint64_t kThreadsPerHardwareThread = 4;

// The machine's hardware threads (at least 1).
uint64_t HardwareThreads();

OptionSpec ThreadsOptionSpec();
// The --threads value in [1, kThreadsPerHardwareThread x HardwareThreads()]; HardwareThreads()
// when absent. A value out of range is a UsageError stating the bound and why.
uint64_t ThreadsArgument(const ParsedArguments& arguments);

}  // namespace collage::cli
