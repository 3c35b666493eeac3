// How far the partitioner searches, as the tools name it.
//   op     the exact op-level search only;
//   graph  then the evolutionary graph-level stage on measured whole-model latency
//          (graph_search.h), which needs measured costs.
#pragma once

#include <optional>
#include <string_view>

namespace collage {

enum class SearchLevel { kOp, kGraph };

constexpr std::string_view SearchLevelName(SearchLevel level) { return level == SearchLevel::kGraph ? "graph" : "op"; }

// nullopt for a name other than "op" or "graph".
constexpr std::optional<SearchLevel> ParseSearchLevel(std::string_view name) {
  if (name == "op") return SearchLevel::kOp;
  if (name == "graph") return SearchLevel::kGraph;
  return std::nullopt;
}

}  // namespace collage
