#include "collage/coalesce_partitions.h"

#include "collage/outline_partitions.h"

namespace collage {
namespace {

bool CanJoin(const CandidatePartition& lhs, const CandidatePartition& rhs,
             const std::function<bool(const CandidatePartition&)>& mergeable) {
  return lhs.backend() == rhs.backend() && lhs.boundary_layouts() == rhs.boundary_layouts() &&
         lhs.precision() == DType::kF32 && rhs.precision() == DType::kF32 &&
         PrimitiveAttrs(lhs.sub_graph()) && PrimitiveAttrs(rhs.sub_graph()) &&
         mergeable(lhs) && mergeable(rhs) && lhs.sub_graph().Touches(rhs.sub_graph());
}

}  // namespace

bool GroupsAreAcyclic(const DataflowGraph& graph, const std::vector<IndexSet>& groups) {
  // Units: each group, and each node in no group. Kahn's algorithm on the contracted graph.
  std::vector<size_t> unit_of(graph.size());
  for (size_t node = 0; node < graph.size(); ++node) unit_of[node] = groups.size() + node;
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t node : groups[g].ToVector()) unit_of[node] = g;
  }
  const size_t units = groups.size() + graph.size();
  std::vector<std::vector<size_t>> consumers(units);
  std::vector<size_t> pending(units, 0);
  for (const DataflowNode& node : graph.nodes()) {
    for (size_t output : node.outputs) {
      if (unit_of[node.index] == unit_of[output]) continue;
      consumers[unit_of[node.index]].push_back(unit_of[output]);
      ++pending[unit_of[output]];
    }
  }
  std::vector<size_t> ready;
  for (size_t unit = 0; unit < units; ++unit) {
    if (pending[unit] == 0) ready.push_back(unit);
  }
  size_t done = 0;
  while (!ready.empty()) {
    const size_t unit = ready.back();
    ready.pop_back();
    ++done;
    for (size_t consumer : consumers[unit]) {
      if (--pending[consumer] == 0) ready.push_back(consumer);
    }
  }
  return done == units;
}

std::vector<IndexSet> InsideSets(const std::vector<CandidatePartition>& candidates) {
  std::vector<IndexSet> sets;
  for (const CandidatePartition& candidate : candidates) sets.push_back(candidate.sub_graph().inside());
  return sets;
}

std::vector<CandidatePartition> CoalescePartitions(const DataflowGraph& graph, std::vector<CandidatePartition> chosen,
                                                   const std::function<bool(const CandidatePartition&)>& mergeable) {
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < chosen.size() && !merged; ++i) {
      for (size_t j = i + 1; j < chosen.size() && !merged; ++j) {
        const CandidatePartition& lhs = chosen[i];
        const CandidatePartition& rhs = chosen[j];
        if (!CanJoin(lhs, rhs, mergeable)) continue;
        SubGraph joined = lhs.sub_graph().DisjointUnion(graph, rhs.sub_graph());
        if (!joined.IsValid(graph, convex_only)) continue;
        std::vector<CandidatePartition> next = chosen;
        next[i] = CandidatePartition(std::move(joined), lhs.spec_name(), lhs.backend(), "coalesce");
        next.erase(next.begin() + static_cast<std::ptrdiff_t>(j));
        if (!GroupsAreAcyclic(graph, InsideSets(next))) continue;
        chosen = std::move(next);
        merged = true;
      }
    }
  }
  return chosen;
}

}  // namespace collage
