#include "partition_request_arguments.h"

#include "available_backends.h"
#include "backend/backend.h"
#include "pipeline/model_loader.h"
#include "pipeline/request_checks.h"
#include "precision_arguments.h"
#include "runtime/cost_database.h"
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

PartitionRequest ReadPartitionRequest(const ParsedArguments& arguments, CostModel default_cost,
                                      const std::string& command) {
  PartitionRequest request;
  request.model_path = arguments.positional;
  const std::string cost_model = arguments.Value("--cost").value_or(std::string(CostModelName(default_cost)));
  const std::optional<CostModel> parsed_cost_model = ParseCostModel(cost_model);
  if (!parsed_cost_model) throw UsageError("--cost expects analytic or measured, got '" + cost_model + "'", command);
  request.cost_model = *parsed_cost_model;
  CheckForCommand(command, [&] { CheckCostOptions(request.cost_model, SearchLevel::kOp, arguments.Has("--db")); });
  const std::string search = arguments.Value("--search").value_or("op");
  const std::optional<SearchLevel> parsed_search = ParseSearchLevel(search);
  if (!parsed_search) throw UsageError("--search expects op or graph, got '" + search + "'", command);
  request.search = *parsed_search;
  CheckForCommand(command, [&] { CheckCostOptions(request.cost_model, request.search, false); });
  request.graph_budget_seconds = static_cast<double>(arguments.UnsignedValue("--graph-budget", 120, 1, 86400));
  request.seed = arguments.UnsignedValue("--seed", 0);
  std::string every_backend;
  for (const std::string& name : BackendRegistry::Global().Names()) {
    every_backend += (every_backend.empty() ? "" : ",") + name;
  }
  request.backends = ParseBackendList(arguments.Value("--backends").value_or(every_backend), command);
  request.database_path = arguments.Value("--db").value_or("");
  request.threads = static_cast<int>(ThreadsArgument(arguments));
  request.precision = ReadPrecisionRequest(arguments, command);
  CheckForCommand(command, [&] { CheckPrecisionOptions(request.precision.mode, request.cost_model, request.search); });
  if (request.precision.mode == PrecisionMode::kFp32) {
    for (const char* option : {"--tolerance", "--metric", "--calibration"}) {
      if (arguments.Has(option)) throw UsageError(std::string(option) + " applies to --precision auto", command);
    }
  }
  return request;
}

std::vector<NamedPath> PartitionRequestInputs(const PartitionRequest& request) {
  std::vector<NamedPath> inputs = {{"MODEL", request.model_path}};
  for (const std::string& file : request.precision.calibration_files) inputs.push_back({"--calibration", file});
  if (request.cost_model == CostModel::kMeasured) {
    inputs.push_back({"--db", request.database_path.empty() ? CostDatabase::DefaultPath() : request.database_path});
  }
  return inputs;
}

}  // namespace collage::cli
