// The precision options `collage partition`, `bench` and `run` share: --precision, --tolerance,
// --metric and --calibration, read into the public API's CompileOptions.
#pragma once

#include <vector>

#include "arguments.h"
#include "collage/compile_options.h"

namespace collage::cli {

std::vector<OptionSpec> PrecisionOptionSpecs();

// Malformed values are UsageErrors for `command` naming the option and what it expects.
void ReadPrecisionOptions(const ParsedArguments& arguments, const std::string& command, api::CompileOptions& options);

}  // namespace collage::cli
