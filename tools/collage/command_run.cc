// `collage run MODEL ...`: runs @main on seeded random inputs or the arrays of an .npz file
// through the executor (once, or --repeat times after a warm-up run), placed greedily on the
// listed backends (the universal fallback runs the rest), as the plan of `collage partition
// -o` says (--plan), or with --precision auto as `collage partition --cost measured --precision
// auto` would place it; prints each output's type and a summary, optionally the per-partition
// profile, writes the outputs and checks them against the reference interpreter.
#include <algorithm>
#include <iostream>
#include <optional>

#include "available_backends.h"
#include "collage/compiled_model.h"
#include "collage/npz.h"
#include "commands.h"
#include "output_paths.h"
#include "partition_request_arguments.h"
#include "precision_arguments.h"
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
              {{"--precision"}, "fp32|auto",
               "fp32 (default) or auto: instead of placing greedily, place the model by the op-level search on "
               "measured costs, which may choose reduced-precision partitions within --tolerance on the calibration "
               "inputs (as `collage partition --cost measured --precision auto`)"},
              {{"--calibration"}, "A.npz[,B.npz...]",
               "--precision auto: calibration inputs, one argument set per file (default: 8 seeded random sets)"},
              {{"--db"}, "PATH", "--precision auto: the measured-cost database (default: ~/.cache/collage/costs.sqlite)"},
              {{"--tolerance"}, "T",
               "--precision auto: the largest error accepted (default: 0.01); --check of a reduced-precision plan: "
               "the largest error accepted (default: the plan's tolerance)"},
              {{"--metric"}, "rel-l2|max-rel|top1",
               "--precision auto: the error measure (default: rel-l2); --check of a reduced-precision plan: the error "
               "measure (default: the plan's metric)"},
          }};
}

int RunRunCommand(const ParsedArguments& arguments) {
  const std::optional<std::string> plan_path = arguments.Value("--plan");
  if (plan_path && arguments.Has("--backends")) {
    throw UsageError("--backends and --plan exclude each other: the plan names its backends", "run");
  }
  const std::vector<std::string> backends =
      ParseBackendList(arguments.Value("--backends").value_or("reference"), "run");
  const int threads = static_cast<int>(ThreadsArgument(arguments));
  const uint64_t seed = arguments.UnsignedValue("--seed", 0);
  api::CompileOptions placement;
  ReadPrecisionOptions(arguments, "run", placement);
  const bool place_by_precision = placement.precision == api::Precision::kAuto;
  if (place_by_precision && plan_path) {
    throw UsageError("--precision and --plan exclude each other: the plan fixes each partition's precision", "run");
  }
  if (!place_by_precision && (arguments.Has("--calibration") || arguments.Has("--db"))) {
    throw UsageError("--calibration and --db apply to --precision auto", "run");
  }
  if (place_by_precision) {
    placement.backends = backends;
    placement.threads = threads;
    placement.seed = seed;
    placement.cost = api::CostModel::kMeasured;
    placement.database_path = arguments.Value("--db").value_or("");
    CheckForCommand("run", [&] { api::CheckCompileOptions(placement); });
  }
  std::vector<NamedPath> read_paths = {{"MODEL", arguments.positional},
                                       {"--inputs", arguments.Value("--inputs").value_or("")},
                                       {"--plan", plan_path.value_or("")}};
  if (place_by_precision) {
    for (const NamedPath& path : CompileInputs(arguments.positional, placement)) read_paths.push_back(path);
  }
  RefuseOutputsOverInputs({{"--outputs", arguments.Value("--outputs").value_or("")}}, read_paths);

  const std::optional<std::string> inputs_path = arguments.Value("--inputs");
  std::vector<api::NamedTensor> arrays = inputs_path ? api::ReadNpz(*inputs_path) : std::vector<api::NamedTensor>{};
  api::InputBindings bindings{.shapes = ReadShapeBindings(arguments, "run"), .values = {}};
  for (const api::NamedTensor& array : arrays) bindings.values.emplace(array.name, array.tensor);
  const api::Model model = api::Model::Load(arguments.positional, bindings);
  std::erase_if(arrays, [&](const api::NamedTensor& array) {
    return std::find(model.bound_inputs().begin(), model.bound_inputs().end(), array.name) != model.bound_inputs().end();
  });
  api::CompiledModel compiled = plan_path            ? api::LoadPlan(model, *plan_path, threads)
                                : place_by_precision ? api::Place(model, placement)
                                                     : api::PlaceGreedily(model, backends, threads);
  if (place_by_precision) {
    const std::optional<api::SearchSummary> search = compiled.search();
    if (search && search->precision) std::cout << search->precision->summary;
  }
  const std::vector<api::Tensor> inputs =
      inputs_path ? compiled.InputsFromArrays(arrays, *inputs_path) : compiled.RandomInputs(seed);

  if ((arguments.Has("--tolerance") || arguments.Has("--metric")) && !compiled.reduced_precision() &&
      !place_by_precision) {
    throw UsageError("--tolerance and --metric apply to --precision auto and to --check of a reduced-precision plan "
                     "(--plan)", "run");
  }
  api::ReferenceCheckOptions check_options;
  if (compiled.reduced_precision()) {
    if (arguments.Has("--tolerance")) check_options.tolerance = placement.tolerance;
    if (arguments.Has("--metric")) check_options.metric = placement.metric;
  }
  std::optional<uint64_t> repeat;
  if (arguments.Has("--repeat")) repeat = arguments.UnsignedValue("--repeat", 1, 1, 100000);
  std::vector<api::NamedTensor> outputs = compiled.Run(inputs);
  if (repeat) {
    compiled.ClearProfile();
    for (uint64_t round = 0; round < *repeat; ++round) outputs = compiled.Run(inputs);
  }
  if (arguments.Has("--profile")) {
    const api::RunProfile profile = compiled.Profile();
    std::cout << profile.table << "activation memory: " << profile.arena_bytes << " bytes planned, "
              << profile.bytes_without_reuse << " bytes without reuse\n";
  }
  for (const api::NamedTensor& output : outputs) {
    std::cout << output.name << ": " << output.tensor.TypeString() << "  " << SummarizeTensor(output.tensor) << "\n";
  }
  if (const std::optional<std::string> outputs_path = arguments.Value("--outputs")) api::WriteNpz(*outputs_path, outputs);

  if (arguments.Has("--check")) {
    // The oracle is the model as loaded, so the standard passes are checked too.
    const api::ReferenceCheck check = compiled.CheckAgainstReference(inputs, outputs, check_options);
    std::cout << check.summary << std::endl;
    if (!check.ok) throw Error("--check: " + check.failure);
  }
  return 0;
}

}  // namespace collage::cli
