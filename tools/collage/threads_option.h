// The --threads option of the commands that run a model: worker threads for every backend.
// The value is bounded by a small multiple of the machine's hardware threads
// (api::MostThreads()).
#pragma once

#include <cstdint>

#include "arguments.h"

namespace collage::cli {

OptionSpec ThreadsOptionSpec();
// The --threads value in [1, MostThreads()]; HardwareThreads()
// when absent. A value out of range is a UsageError stating the bound and why.
uint64_t ThreadsArgument(const ParsedArguments& arguments);

}  // namespace collage::cli
