// `collage run MODEL ...`: runs @main on seeded random inputs or the arrays of an .npz file
// through the executor (once, or --repeat times after a warm-up run), placed greedily on the
// listed backends (the universal fallback runs the rest) or as the plan of `collage partition
// -o` says (--plan); prints each output's type and a summary, optionally the per-partition
// profile, writes the outputs and checks them against the reference interpreter.
#include <algorithm>
#include <iostream>
#include <optional>

#include "available_backends.h"
#include "commands.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "ir/type.h"
#include "pipeline/argument_arrays.h"
#include "output_paths.h"
#include "pass/standard_passes.h"
#include "pipeline/greedy_run.h"
#include "pipeline/model_loader.h"
#include "pipeline/output_names.h"
#include "pipeline/plan_file.h"
#include "pipeline/reduced_precision_check.h"
#include "precision_arguments.h"
#include "runtime/compare.h"
#include "shape_option.h"
#include "tensor_summary.h"
#include "threads_option.h"

namespace collage::cli {

CommandSpec RunCommandSpec() {
  return {"run",
          "MODEL",
          "run the model once (or --repeat times) and print its outputs",
          {
              {{"--backends"}, "B1,B2,...",
               "backends in priority order, greedily placed; the rest runs on the fallback (default: reference; "
               "see `collage backends`)"},
              ThreadsOptionSpec(),
              {{"--seed"}, "S", "seed of the random inputs (default: 0)"},
              {{"--inputs"}, "IN.npz",
               "take the inputs from IN.npz, one array per graph input name; their shapes bind symbolic dimensions, and "
               "inputs that must be known at load time (shapes, axes, pads, sizes) become constants of their values"},
              ShapeOptionSpec(),
              {{"--outputs"}, "OUT.npz", "write the outputs to OUT.npz (\"output\" or \"output0\", ...)"},
              {{"--check"}, "", "compare every output with the reference interpreter; exit 1 on mismatch"},
              {{"--plan"}, "PLAN", "run the placement of PLAN (`collage partition -o`), made for this MODEL"},
              {{"--profile"}, "", "print the time of each partition and the activation memory"},
              {{"--repeat"}, "N",
               "after a warm-up run, run N times (the profile's medians are over those runs; default: one run, "
               "no warm-up)"},
              {{"--tolerance"}, "T",
               "--check of a reduced-precision plan: the largest error accepted (default: the plan's tolerance)"},
              {{"--metric"}, "rel-l2|max-rel|top1",
               "--check of a reduced-precision plan: the error measure (default: the plan's metric)"},
          }};
}

int RunRunCommand(const ParsedArguments& arguments) {
  const std::optional<std::string> plan_path = arguments.Value("--plan");
  if (plan_path && arguments.Has("--backends")) {
    throw UsageError("--backends and --plan exclude each other: the plan names its backends", "run");
  }
  std::vector<std::string> backends = ParseBackendList(arguments.Value("--backends").value_or("reference"), "run");
  const uint64_t threads = ThreadsArgument(arguments);
  const uint64_t seed = arguments.UnsignedValue("--seed", 0);
  RefuseOutputsOverInputs({{"--outputs", arguments.Value("--outputs").value_or("")}},
                          {{"MODEL", arguments.positional},
                           {"--inputs", arguments.Value("--inputs").value_or("")},
                           {"--plan", plan_path.value_or("")}});

  const std::optional<std::string> inputs_path = arguments.Value("--inputs");
  NamedTensors arrays = inputs_path ? ReadNpz(*inputs_path) : NamedTensors{};
  ModelBindings bindings = ReadShapeBindings(arguments, "run");
  for (const auto& [name, tensor] : arrays) bindings.values.emplace(name, tensor);
  const LoadedModel loaded_model = LoadModelWithBindings(arguments.positional, bindings);
  const Module& loaded = loaded_model.module;
  const Module module = StandardPipeline()(loaded);
  const Function& main = module.main();
  std::erase_if(arrays, [&](const auto& array) {
    return std::find(loaded_model.bound_inputs.begin(), loaded_model.bound_inputs.end(), array.first) !=
           loaded_model.bound_inputs.end();
  });
  const std::vector<Value> inputs =
      inputs_path ? ArgumentsFromArrays(main, arrays, *inputs_path) : RandomArguments(main, seed);

  Function placed = main;
  std::optional<PlanPrecision> reduced_precision;  // of a plan with reduced-precision partitions
  if (plan_path) {
    const Plan plan = ReadPlanFile(*plan_path);
    CheckPlanMatchesModel(plan, *plan_path, module, arguments.positional);
    backends = plan.backends;
    placed = plan.module.main();
    if (HasReducedPrecision(plan)) reduced_precision = plan.precision;
  }
  if ((arguments.Has("--tolerance") || arguments.Has("--metric")) && !reduced_precision) {
    throw UsageError("--tolerance and --metric apply to --check of a reduced-precision plan (--plan)", "run");
  }
  if (reduced_precision) {
    const PrecisionRequest given = ReadPrecisionRequest(arguments, "run");
    if (arguments.Has("--tolerance")) reduced_precision->tolerance = given.tolerance;
    if (arguments.Has("--metric")) reduced_precision->metric = given.metric;
  }
  std::optional<uint64_t> repeat;
  if (arguments.Has("--repeat")) repeat = arguments.UnsignedValue("--repeat", 1, 1, 100000);
  const bool profile = arguments.Has("--profile");
  const GreedyRun run = RunGreedily(placed, inputs, backends, static_cast<int>(threads), repeat, profile);
  if (profile) {
    std::cout << run.profile_table << "activation memory: " << run.arena_bytes << " bytes planned, "
              << run.bytes_without_reuse << " bytes without reuse\n";
  }
  const Value& result = run.result;
  const NamedTensors outputs = NameOutputs(result);
  for (const auto& [name, tensor] : outputs) {
    std::cout << name << ": " << TypeToString(TensorType(tensor.dtype(), tensor.shape())) << "  "
              << SummarizeTensor(tensor) << "\n";
  }
  if (const std::optional<std::string> outputs_path = arguments.Value("--outputs")) WriteNpz(*outputs_path, outputs);

  if (arguments.Has("--check") && reduced_precision) {
    const ReducedPrecisionCheck check = CheckReducedPrecision(result, Evaluate(loaded.main(), inputs), *reduced_precision);
    std::cout << check.message << std::endl;
    if (!check.within_tolerance) throw Error("--check: " + check.message);
  } else if (arguments.Has("--check")) {
    // The oracle is the model as loaded, so the standard passes are checked too.
    const Comparison comparison = CompareValues(result, Evaluate(loaded.main(), inputs));
    std::cout << "max abs error: " << comparison.max_abs_error
              << ", relative to the output's magnitude: " << comparison.max_scaled_error << std::endl;
    if (!comparison.ok()) {
      throw Error("--check: " + std::to_string(comparison.mismatches) +
                  " elements differ from the reference; first: " + comparison.first_mismatch);
    }
  }
  return 0;
}

}  // namespace collage::cli
