// The options `collage partition` and `collage bench` share (backends, cost database,
// threads, search, graph budget, seed) and their reading into a PartitionRequest.
#pragma once

#include <string>
#include <vector>

#include "arguments.h"
#include "output_paths.h"
#include "pipeline/model_partitioner.h"

namespace collage::cli {

// --backends, --db, --threads, --search, --graph-budget, --seed, --shape and the precision
// options (precision_arguments.h).
std::vector<OptionSpec> PartitionRequestOptionSpecs();

// Reads those options (and --cost when the command has it; `default_cost` otherwise). Bad
// values and contradictions (--db or --search graph without measured costs) are UsageErrors
// for `command`.
PartitionRequest ReadPartitionRequest(const ParsedArguments& arguments, CostModel default_cost,
                                      const std::string& command);

// The files the request reads: the model, the calibration inputs and, for measured costs, the
// cost database.
std::vector<NamedPath> PartitionRequestInputs(const PartitionRequest& request);

}  // namespace collage::cli
