// The options `collage partition` and `collage bench` share (backends, cost database,
// threads, search, graph budget, seed) and their reading into a PartitionRequest.
#pragma once

#include <string>
#include <vector>

#include "arguments.h"
#include "model_partitioner.h"

namespace collage::cli {

// --backends, --db, --threads, --search, --graph-budget, --seed and --shape.
std::vector<OptionSpec> PartitionRequestOptionSpecs();

// Reads those options (and --cost when the command has it; `default_cost` otherwise). Bad
// values and contradictions (--db or --search graph without measured costs) are UsageErrors
// for `command`.
PartitionRequest ReadPartitionRequest(const ParsedArguments& arguments, const std::string& default_cost,
                                      const std::string& command);

}  // namespace collage::cli
