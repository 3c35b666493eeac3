// `collage partition MODEL --backends B1,B2,... [--cost analytic|measured] [--db PATH]
// [--threads N] [--search op|graph] [-o PLAN] [--report REPORT.html]`: places every part of
// the model on the listed backends with the Collage partitioner and prints the placement (one
// line per partition and the total) and the explain table; -o writes the plan; --report runs
// the placed model and writes the HTML placement report.
#include <algorithm>
#include <iostream>
#include <map>

#include "backend/backend.h"
#include "commands.h"
#include "output_paths.h"
#include "partition_request_arguments.h"
#include "pipeline/model_loader.h"
#include "pipeline/model_partitioner.h"
#include "pipeline/partition_report_writer.h"
#include "pipeline/text_file.h"
#include "shape_option.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "partition";
// Invalid candidates listed one by one; beyond this, counted per reason.
constexpr size_t kInvalidListed = 5;

void PrintTuning(const ModelPlacement& placement) {
  std::cout << "tuning: " << placement.tuning->ToString() << "; cost database " << placement.database_path << "\n";
  std::cout << "transition penalty: layout conversions and hand-overs between backends, measured\n";
  for (const ModelPlacement::HandOver& hand_over : placement.hand_overs) {
    std::cout << "  hand-over " << hand_over.producer << " -> " << hand_over.consumer << ": " << hand_over.seconds * 1e6
              << " us\n";
  }
  std::map<std::string, size_t> per_reason;
  for (size_t i = 0; i < placement.invalid.size(); ++i) {
    const InvalidCandidate& invalid = placement.invalid[i];
    if (i < kInvalidListed) std::cout << "  invalid: " << invalid.description << ": " << invalid.reason << "\n";
    ++per_reason[invalid.reason.substr(0, invalid.reason.find(':'))];
  }
  if (placement.invalid.size() > kInvalidListed) {
    std::cout << "  ... " << placement.invalid.size() - kInvalidListed << " more invalid candidates; by reason:\n";
    for (const auto& [reason, count] : per_reason) std::cout << "    " << count << "  " << reason << "\n";
  }
}

}  // namespace

CommandSpec PartitionCommandSpec() {
  return {kCommand,
          "MODEL",
          "place the parts of the model on backends by estimated cost and print the placement",
          [] {
            std::vector<OptionSpec> options = PartitionRequestOptionSpecs();
            options.push_back({{"--cost"}, "analytic|measured",
                               "cost model: analytic (default; roofline per backend) or measured (time every candidate)"});
            options.push_back(
                {{"--output", "-o"}, "PLAN", "write the plan (partitioned model and costs) to PLAN for `run --plan`"});
            options.push_back({{"--report"}, "REPORT.html",
                               "run the placed model, time each partition and write an HTML report (graph, estimates, "
                               "measurements)"});
            return options;
          }()};
}

int RunPartitionCommand(const ParsedArguments& arguments) {
  const PartitionRequest request = ReadPartitionRequest(arguments, CostModel::kAnalytic, kCommand);
  RefuseOutputsOverInputs(
      {{"--output", arguments.Value("--output").value_or("")}, {"--report", arguments.Value("--report").value_or("")}},
      PartitionRequestInputs(request));
  const Module model = LoadModelForPlacement(arguments.positional, ReadShapeBindings(arguments, kCommand));
  const ModelPlacement placement = PlaceModel(model, request);
  std::cout << placement.Listing();
  if (placement.tuning) PrintTuning(placement);
  std::cout << "partitioning took " << placement.seconds << " s\n";
  if (const std::optional<std::string> output = arguments.Value("--output")) {
    WriteTextFile(*output, PlanToText(placement.plan));
    std::cout << "plan written to " << *output << "\n";
  }
  if (const std::optional<std::string> report_path = arguments.Value("--report")) {
    PlacementReport report{.model = request.model_path,
                           .backends = request.backends,
                           .threads = static_cast<size_t>(request.threads),
                           .cost_model = placement.plan.cost_model};
    for (const ModelPlacement::FunctionPlacement& function : placement.functions) {
      AddPartitionedFunction(report, function.original, function.result, *placement.estimator);
    }
    for (const InvalidCandidate& invalid : placement.invalid) report.refused.push_back({invalid.description, invalid.reason});
    SetReportPrecisions(report, placement.plan);
    WritePartitionReport(*report_path, report, placement.plan.module);
    std::cout << "report written to " << *report_path << "\n";
  }
  return 0;
}

}  // namespace collage::cli
