// The precision options `collage partition`, `bench` and `run` share: --precision, --tolerance,
// --metric and --calibration, read into a PrecisionRequest.
#pragma once

#include <vector>

#include "arguments.h"
#include "pipeline/precision_request.h"

namespace collage::cli {

std::vector<OptionSpec> PrecisionOptionSpecs();

// Malformed values are UsageErrors for `command` naming the option and what it expects.
PrecisionRequest ReadPrecisionRequest(const ParsedArguments& arguments, const std::string& command);

}  // namespace collage::cli
