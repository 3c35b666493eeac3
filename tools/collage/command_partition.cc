// `collage partition MODEL --backends B1,B2,... [--cost analytic|measured] [--db PATH]
// [--threads N] [--search op|graph] [-o PLAN] [--report REPORT.html]`: places every part of
// the model on the listed backends with the Collage partitioner and prints the placement (one
// line per partition and the total) and the explain table; -o writes the plan; --report runs
// the placed model and writes the HTML placement report.
#include <algorithm>
#include <iostream>
#include <map>

#include "collage/compiled_model.h"
#include "commands.h"
#include "output_paths.h"
#include "partition_request_arguments.h"
#include "shape_option.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "partition";
// Invalid candidates listed one by one; beyond this, counted per reason.
constexpr size_t kInvalidListed = 5;

void PrintTuning(const api::SearchSummary& placement) {
  std::cout << "tuning: " << *placement.tuning << "; cost database " << placement.cost_database << "\n";
  std::cout << "transition penalty: layout conversions and hand-overs between backends, measured\n";
  for (const api::SearchSummary::HandOver& hand_over : placement.hand_overs) {
    std::cout << "  hand-over " << hand_over.producer << " -> " << hand_over.consumer << ": " << hand_over.seconds * 1e6
              << " us\n";
  }
  std::map<std::string, size_t> per_reason;
  for (size_t i = 0; i < placement.invalid.size(); ++i) {
    const api::SearchSummary::InvalidCandidate& invalid = placement.invalid[i];
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
  const api::CompileOptions options = ReadCompileOptions(arguments, api::CostModel::kAnalytic, kCommand);
  RefuseOutputsOverInputs(
      {{"--output", arguments.Value("--output").value_or("")}, {"--report", arguments.Value("--report").value_or("")}},
      CompileInputs(arguments.positional, options));
  const api::Model model = api::Model::Load(arguments.positional, ReadShapeBindings(arguments, kCommand));
  const api::CompiledModel placed = api::Place(model, options);
  const api::SearchSummary search = *placed.search();
  std::cout << search.listing;
  if (search.tuning) PrintTuning(search);
  std::cout << "partitioning took " << search.seconds << " s\n";
  if (const std::optional<std::string> output = arguments.Value("--output")) {
    placed.SavePlan(*output);
    std::cout << "plan written to " << *output << "\n";
  }
  if (const std::optional<std::string> report_path = arguments.Value("--report")) {
    placed.WriteReport(*report_path);
    std::cout << "report written to " << *report_path << "\n";
  }
  return 0;
}

}  // namespace collage::cli
