// `collage backends`: one line per available backend: name, kind, device.
#include <iostream>

#include "available_backends.h"
#include "commands.h"

namespace collage::cli {

CommandSpec BackendsCommandSpec() { return {"backends", "", "list the available backends: name, kind, device", {}}; }

int RunBackendsCommand(const ParsedArguments& arguments) {
  size_t name_width = 0;
  size_t kind_width = 0;
  for (const BackendDescription& backend : AvailableBackends()) {
    name_width = std::max(name_width, backend.name.size());
    kind_width = std::max(kind_width, backend.kind.size());
  }
  for (const BackendDescription& backend : AvailableBackends()) {
    std::string name = backend.name;
    std::string kind = backend.kind;
    name.resize(name_width, ' ');
    kind.resize(kind_width, ' ');
    std::cout << name << "  " << kind << "  " << backend.device << "\n";
  }
  return 0;
}

}  // namespace collage::cli
