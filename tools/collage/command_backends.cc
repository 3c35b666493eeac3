// `collage backends`: one line per backend of BackendRegistry::Global(): name, kind, device
// and the number of patterns in its pattern table, under a header line.
#include <iostream>

#include "backend/backend.h"
#include "commands.h"

namespace collage::cli {

CommandSpec BackendsCommandSpec() {
  return {"backends", "", "list the available backends: name, kind, device, number of patterns", {}};
}

int RunBackendsCommand(const ParsedArguments& arguments) {
  std::vector<std::vector<std::string>> lines = {{"name", "kind", "device", "patterns"}};
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    lines.push_back({backend->name(), BackendKindName(backend->kind()), DeviceName(backend->device()),
                     std::to_string(backend->Support().patterns.size())});
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
  return 0;
}

}  // namespace collage::cli
