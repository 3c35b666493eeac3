#include "partition_request_arguments.h"

#include "available_backends.h"
#include "precision_arguments.h"
#include "shape_option.h"
#include "threads_option.h"

namespace collage::cli {

std::vector<OptionSpec> PartitionRequestOptionSpecs() {
  std::vector<OptionSpec> options = {
      {{"--backends"}, "B1,B2,...", "backends to place on (default: every available backend)"},
      {{"--db"}, "PATH", "measured-cost database (default: ~/.cache/collage/costs.sqlite)"},
      ThreadsOptionSpec(),
      {{"--search"}, "op|graph",
       "op (default: the exact op-level search) or graph (then an evolutionary search on measured whole-model "
       "latency; needs measured costs)"},
      {{"--graph-budget"}, "SECONDS",
       "wall time of the graph-level search per function (default: 120); it ends sooner when 10 generations in a row "
       "find nothing better"},
      {{"--seed"}, "S", "seed of the random inputs and of the graph-level search (default: 0)"},
      ShapeOptionSpec(),
  };
  for (OptionSpec& option : PrecisionOptionSpecs()) options.push_back(std::move(option));
  return options;
}

api::CompileOptions ReadCompileOptions(const ParsedArguments& arguments, api::CostModel default_cost,
                                       const std::string& command) {
  api::CompileOptions options;
  const std::string cost_model = arguments.Value("--cost").value_or(std::string(api::CostModelName(default_cost)));
  const std::optional<api::CostModel> parsed_cost_model = api::ParseCostModel(cost_model);
  if (!parsed_cost_model) throw UsageError("--cost expects analytic or measured, got '" + cost_model + "'", command);
  options.cost = *parsed_cost_model;
  options.database_path = arguments.Value("--db").value_or("");
  CheckForCommand(command, [&] { api::CheckCompileOptions(options); });
  const std::string search = arguments.Value("--search").value_or("op");
  const std::optional<api::SearchLevel> parsed_search = api::ParseSearchLevel(search);
  if (!parsed_search) throw UsageError("--search expects op or graph, got '" + search + "'", command);
  options.search = *parsed_search;
  CheckForCommand(command, [&] { api::CheckCompileOptions(options); });
  options.graph_budget_seconds = static_cast<double>(arguments.UnsignedValue("--graph-budget", 120, 1, 86400));
  options.seed = arguments.UnsignedValue("--seed", 0);
  std::string every_backend;
  for (const std::string& name : api::AvailableBackends()) every_backend += (every_backend.empty() ? "" : ",") + name;
  options.backends = ParseBackendList(arguments.Value("--backends").value_or(every_backend), command);
  options.threads = static_cast<int>(ThreadsArgument(arguments));
  ReadPrecisionOptions(arguments, command, options);
  CheckForCommand(command, [&] { api::CheckCompileOptions(options); });
  if (options.precision == api::Precision::kFp32) {
    for (const char* option : {"--tolerance", "--metric", "--calibration"}) {
      if (arguments.Has(option)) throw UsageError(std::string(option) + " applies to --precision auto", command);
    }
  }
  return options;
}

std::vector<NamedPath> CompileInputs(const std::string& model_path, const api::CompileOptions& options) {
  std::vector<NamedPath> inputs = {{"MODEL", model_path}};
  for (const std::string& file : options.calibration_files) inputs.push_back({"--calibration", file});
  if (options.cost == api::CostModel::kMeasured) {
    inputs.push_back({"--db", options.database_path.empty() ? api::DefaultCostDatabase() : options.database_path});
  }
  return inputs;
}

}  // namespace collage::cli
