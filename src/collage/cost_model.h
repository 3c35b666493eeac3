// Which cost the partitioner's search minimizes, as the tools and the plan files name it.
//   analytic  each backend's roofline (BackendPerformance), no measurement;
//   measured  every candidate compiled and timed, costs kept in the cost database.
#pragma once

#include <optional>
#include <string_view>

namespace collage {

enum class CostModel { kAnalytic, kMeasured };

constexpr std::string_view CostModelName(CostModel model) {
  return model == CostModel::kMeasured ? "measured" : "analytic";
}

// nullopt for a name other than "analytic" or "measured".
constexpr std::optional<CostModel> ParseCostModel(std::string_view name) {
  if (name == "analytic") return CostModel::kAnalytic;
  if (name == "measured") return CostModel::kMeasured;
  return std::nullopt;
}

}  // namespace collage
