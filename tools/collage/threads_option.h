// The --threads option of the commands that run a model: worker threads for every backend.
#pragma once

#include <cstdint>

#include "arguments.h"

namespace collage::cli {

OptionSpec ThreadsOptionSpec();
// The --threads value in [1, 4096]; the number of cores when absent.
uint64_t ThreadsArgument(const ParsedArguments& arguments);

}  // namespace collage::cli
