#include "report/backend_colors.h"

#include <algorithm>
#include <array>

#include "support/error.h"

namespace collage {
namespace {

// ColorBrewer's Set3: light fills that dark text stays readable on; its pale yellow, the
// hardest to see as a cluster outline, last.
constexpr std::array<const char*, 10> kPalette = {"#8dd3c7", "#fb8072", "#80b1d3", "#fdb462", "#b3de69",
                                                  "#bebada", "#fccde5", "#d9d9d9", "#bc80bd", "#ffffb3"};

}  // namespace

BackendColors::BackendColors(const PlacementReport& report) {
  for (const std::string& backend : report.backends) Assign(backend);
  for (const ReportPartition& partition : report.partitions) Assign(partition.backend);
}

void BackendColors::Assign(const std::string& backend) {
  const bool named = std::any_of(entries_.begin(), entries_.end(), [&](const auto& entry) { return entry.first == backend; });
  if (!named) entries_.emplace_back(backend, kPalette[entries_.size() % kPalette.size()]);
}

const std::string& BackendColors::ColorOf(const std::string& backend) const {
  for (const auto& [name, color] : entries_) {
    if (name == backend) return color;
  }
  throw Error("placement report: no colour for backend '" + backend + "'");
}

}  // namespace collage
