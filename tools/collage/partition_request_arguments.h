// The options `collage partition` and `collage bench` share (backends, cost database,
// threads, search, graph budget, seed) and their reading into the public API's CompileOptions.
#pragma once

#include <string>
#include <vector>

#include "arguments.h"
#include "output_paths.h"
#include "collage/compile_options.h"

namespace collage::cli {

// --backends, --db, --threads, --search, --graph-budget, --seed, --shape and the precision
// options (precision_arguments.h).
std::vector<OptionSpec> PartitionRequestOptionSpecs();

// Reads those options (and --cost when the command has it; `default_cost` otherwise). Bad
// values and contradictions (--db or --search graph without measured costs) are UsageErrors
// for `command`.
api::CompileOptions ReadCompileOptions(const ParsedArguments& arguments, api::CostModel default_cost,
                                       const std::string& command);

// The files compiling `model_path` with `options` reads: the model, the calibration inputs and,
// for measured costs, the cost database.
std::vector<NamedPath> CompileInputs(const std::string& model_path, const api::CompileOptions& options);

}  // namespace collage::cli
