// `collage run MODEL ...`: runs @main once on seeded random inputs or the arrays of an
// .npz file, prints each output's type and a summary, optionally writes the outputs and
// checks them against the reference interpreter. With --plan, runs the partitioned model
// of a plan made for MODEL by `collage partition -o`.
#include <iostream>
#include <thread>

#include "available_backends.h"
#include "commands.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "ir/type.h"
#include "model_loader.h"
#include "named_values.h"
#include "plan_file.h"
#include "runtime/compare.h"
#include "tensor_summary.h"

namespace collage::cli {
namespace {

// Runs `function` with the listed backends. Only the reference interpreter exists so far.
Value RunOnBackends(const Function& function, const std::vector<Value>& arguments,
                    const std::vector<std::string>& backends, uint64_t threads) {
  return Evaluate(function, arguments);
}

}  // namespace

CommandSpec RunCommandSpec() {
  return {"run",
          "MODEL",
          "run the model once and print its outputs",
          {
              {{"--backends"}, "B1,B2,...", "backends to run on (default: reference; see `collage backends`)"},
              {{"--threads"}, "N", "worker threads for the backends (default: number of cores)"},
              {{"--seed"}, "S", "seed of the random inputs (default: 0)"},
              {{"--inputs"}, "IN.npz", "take the inputs from IN.npz, one array per parameter name"},
              {{"--outputs"}, "OUT.npz", "write the outputs to OUT.npz (\"output\" or \"output0\", ...)"},
              {{"--check"}, "", "compare every output with the reference interpreter; exit 1 on mismatch"},
              {{"--plan"}, "PLAN", "run the placement of PLAN (`collage partition -o`), made for this MODEL"},
          }};
}

int RunRunCommand(const ParsedArguments& arguments) {
  const std::optional<std::string> plan_path = arguments.Value("--plan");
  if (plan_path && arguments.Has("--backends")) {
    throw UsageError("--backends and --plan exclude each other: the plan names its backends", "run");
  }
  std::vector<std::string> backends = ParseBackendList(arguments.Value("--backends").value_or("reference"), "run");
  const uint64_t threads =
      arguments.UnsignedValue("--threads", std::max(1u, std::thread::hardware_concurrency()), 1, 4096);
  const uint64_t seed = arguments.UnsignedValue("--seed", 0);

  const Module module = LoadModel(arguments.positional);
  const Function& main = module.main();
  const std::optional<std::string> inputs_path = arguments.Value("--inputs");
  const std::vector<Value> inputs =
      inputs_path ? ArgumentsFromArrays(main, ReadNpz(*inputs_path), *inputs_path) : RandomArguments(main, seed);

  Function placed = main;
  if (plan_path) {
    const Plan plan = ReadPlanFile(*plan_path);
    CheckPlanMatchesModel(plan, *plan_path, module, arguments.positional);
    backends = plan.backends;
    placed = plan.module.main();
  }
  const Value result = RunOnBackends(placed, inputs, backends, threads);
  const NamedTensors outputs = NameOutputs(result);
  for (const auto& [name, tensor] : outputs) {
    std::cout << name << ": " << TypeToString(TensorType(tensor.dtype(), tensor.shape())) << "  "
              << SummarizeTensor(tensor) << "\n";
  }
  if (const std::optional<std::string> outputs_path = arguments.Value("--outputs")) WriteNpz(*outputs_path, outputs);

  if (arguments.Has("--check")) {
    const Comparison comparison = CompareValues(result, Evaluate(main, inputs));
    std::cout << "max abs error: " << comparison.max_abs_error << ", max rel error: " << comparison.max_rel_error
              << std::endl;
    if (!comparison.ok()) {
      throw Error("--check: " + std::to_string(comparison.mismatches) +
                  " elements differ from the reference; first: " + comparison.first_mismatch);
    }
  }
  return 0;
}

}  // namespace collage::cli
