// `collage backends`: one line per backend of this build (api::DescribeBackends()): name, kind, device,
// the number of patterns in its pattern table and the element types it computes in, under a
// header line; then the reduced-precision instruction sets this CPU has.
#include <iostream>

#include "collage/backends.h"
#include "commands.h"

namespace collage::cli {

CommandSpec BackendsCommandSpec() {
  return {"backends", "", "list the available backends: name, kind, device, number of patterns, precisions", {}};
}

int RunBackendsCommand(const ParsedArguments& arguments) {
  std::vector<std::vector<std::string>> lines = {{"name", "kind", "device", "patterns", "precisions"}};
  for (const api::BackendInfo& backend : api::DescribeBackends()) {
    std::string precisions;
    for (const std::string& precision : backend.precisions) precisions += (precisions.empty() ? "" : ",") + precision;
    lines.push_back({backend.name, backend.kind, backend.device, std::to_string(backend.patterns), precisions});
  }
  std::vector<size_t> widths(lines[0].size(), 0);
  for (const auto& line : lines) {
    for (size_t column = 0; column < line.size(); ++column) widths[column] = std::max(widths[column], line[column].size());
  }
  for (const auto& line : lines) {
    std::string text;
    for (size_t column = 0; column < line.size(); ++column) {
      std::string cell = line[column];
      if (column + 1 < line.size()) cell.resize(widths[column], ' ');
      text += (column == 0 ? "" : "  ") + cell;
    }
    std::cout << text << "\n";
  }
  std::cout << "reduced precision ISA: " << api::ReducedPrecisionInstructionSets() << "\n";
  return 0;
}

}  // namespace collage::cli
