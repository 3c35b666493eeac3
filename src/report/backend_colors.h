// The colours of backends in the placement report (graph nodes, legend, table): a fixed
// palette handed out in the order backends are first named, so the backends of one report
// get distinct colours as long as there are no more of them than palette entries (then the
// palette repeats). No backend has a colour of its own: the core never names a backend.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/placement_report.h"

namespace collage {

class BackendColors {
 public:
  // The report's listed backends first, then any other backend a partition names.
  explicit BackendColors(const PlacementReport& report);

  // "#8dd3c7"; throws Error for a backend the report does not name.
  const std::string& ColorOf(const std::string& backend) const;
  // (backend, colour) in the order the colours were handed out: the legend.
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }

 private:
  void Assign(const std::string& backend);

  std::vector<std::pair<std::string, std::string>> entries_;
};

}  // namespace collage
