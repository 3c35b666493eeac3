#include "collage/coalesce_partitions.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "collage/outline_partitions.h"

namespace collage {
namespace {

bool CanJoin(const CandidatePartition& lhs, const CandidatePartition& rhs,
             const std::function<bool(const CandidatePartition&)>& mergeable) {
  return lhs.backend() == rhs.backend() && lhs.precision() == DType::kF32 && rhs.precision() == DType::kF32 &&
         PrimitiveAttrs(lhs.sub_graph()) && PrimitiveAttrs(rhs.sub_graph()) &&
         mergeable(lhs) && mergeable(rhs) && lhs.sub_graph().Touches(rhs.sub_graph());
}

// The bytes of the values in `values` that `part` reads (`reads`) or leaves (otherwise) whose
// bytes differ between `part`'s layout for that side and `layout`.
double ChangedBytes(const DataflowGraph& graph, const IndexSet& values, const CandidatePartition& part, bool reads,
                    Layout layout) {
  const PartitionLayouts part_layouts = part.boundary_layouts();
  return reads ? BytesChangedBetween(graph, values & part.sub_graph().input(), part_layouts.parameters, layout)
               : BytesChangedBetween(graph, values & part.sub_graph().exit(), part_layouts.results, layout);
}

// The offered boundary of `joined` (lhs and rhs merged), with one of the two parameter layouts
// (or plain) and one of the two result layouts (or plain), under which the fewest bytes crossing
// it differ from the bytes they had crossing lhs or rhs, the first such in that order; nullopt
// when none is offered, or when `across.keep_crossing_bytes` and every one changes some.
std::optional<PartitionLayouts> MergedBoundary(const DataflowGraph& graph, const SubGraph& joined,
                                               const CandidatePartition& lhs, const CandidatePartition& rhs,
                                               const AcrossLayouts& across) {
  const PartitionLayouts lhs_layouts = lhs.boundary_layouts();
  const PartitionLayouts rhs_layouts = rhs.boundary_layouts();
  std::optional<PartitionLayouts> best;
  double fewest_bytes = 0;
  for (Layout parameters : {lhs_layouts.parameters, rhs_layouts.parameters, Layout::kPlain}) {
    for (Layout results : {lhs_layouts.results, rhs_layouts.results, Layout::kPlain}) {
      const PartitionLayouts merged(parameters, results);
      if (!across.offered(lhs.spec_name(), merged)) continue;
      const double bytes = ChangedBytes(graph, joined.input(), lhs, true, parameters) +
                           ChangedBytes(graph, joined.input(), rhs, true, parameters) +
                           ChangedBytes(graph, joined.exit(), lhs, false, results) +
                           ChangedBytes(graph, joined.exit(), rhs, false, results);
      if (!best || bytes < fewest_bytes) {
        best = merged;
        fewest_bytes = bytes;
      }
    }
  }
  if (best && across.keep_crossing_bytes && fewest_bytes > 0) return std::nullopt;
  return best;
}

}  // namespace

BoundaryOffered BoundariesOfCandidates(const std::vector<CandidatePartition>& candidates) {
  auto offered = std::make_shared<std::set<std::pair<std::string, PartitionLayouts>>>();
  for (const CandidatePartition& candidate : candidates) offered->emplace(candidate.spec_name(), candidate.boundary_layouts());
  return [offered](const std::string& spec_name, const PartitionLayouts& layouts) {
    return offered->count({spec_name, layouts}) > 0;
  };
}

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

// The pairs are tried in the order of a scan of every pair (i, j), i < j, restarted after each
// merge; the result is that scan's. It is made near-linear by trying only touching pairs (others
// never join) and by not retrying pairs that failed: a failed pair not involving the merged
// partition still fails after a merge (joining is a property of the pair, and contracting more
// nodes keeps every cycle). So after a merge into position i, the first pair to succeed is an
// (earlier, i) pair, or else one at or after row i of the scan.
//
// A merged partition takes the earlier position and the later one is marked gone, so positions
// keep the scan's order without moving the partitions after it. The whole-placement acyclicity
// check is skipped where the merge cannot close a cycle: when every consumer of the producing
// side lies in the consuming side, or every producer (with inputs of its own) of the consuming
// side lies in the producing side, no path between the two runs through a third partition. On a
// chain that is every merge, which keeps coalescing it linear in the merges.
std::vector<CandidatePartition> CoalescePartitions(const DataflowGraph& graph, std::vector<CandidatePartition> chosen,
                                                   const std::function<bool(const CandidatePartition&)>& mergeable,
                                                   const AcrossLayouts& across_layouts) {
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  constexpr size_t kNoPartition = static_cast<size_t>(-1);
  std::vector<bool> gone(chosen.size(), false);
  std::vector<size_t> partition_of(graph.size(), kNoPartition);
  for (size_t p = 0; p < chosen.size(); ++p) {
    chosen[p].sub_graph().inside().ForEach([&](size_t node) { partition_of[node] = p; });
  }
  auto next_present = [&](size_t p) {
    while (p < chosen.size() && gone[p]) ++p;
    return p;
  };
  // The partitions holding an input or an output of partition p, ascending.
  auto touching = [&](size_t p) {
    std::vector<size_t> neighbours;
    for (const IndexSet* boundary : {&chosen[p].sub_graph().input(), &chosen[p].sub_graph().output()}) {
      boundary->ForEach([&](size_t node) {
        if (partition_of[node] != kNoPartition) neighbours.push_back(partition_of[node]);
      });
    }
    std::sort(neighbours.begin(), neighbours.end());
    neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
    return neighbours;
  };
  // Whether partition `consumer` is the only one fed by `producer`, or `producer` the only one
  // feeding `consumer` (sources aside: nothing leads into them).
  auto only_link = [&](size_t producer, size_t consumer) {
    bool only_consumer = true;
    chosen[producer].sub_graph().output().ForEach([&](size_t node) { only_consumer &= partition_of[node] == consumer; });
    if (only_consumer) return true;
    bool only_producer = true;
    chosen[consumer].sub_graph().input().ForEach([&](size_t node) {
      only_producer &= partition_of[node] == producer || graph.node(node).inputs.empty();
    });
    return only_producer;
  };
  auto keeps_acyclic = [&](size_t i, size_t j, const SubGraph& joined) {
    const bool i_feeds_j = chosen[i].sub_graph().output().Intersects(chosen[j].sub_graph().inside());
    if (i_feeds_j ? only_link(i, j) : only_link(j, i)) return true;
    std::vector<IndexSet> groups;
    for (size_t p = 0; p < chosen.size(); ++p) {
      if (gone[p] || p == j) continue;
      groups.push_back(p == i ? joined.inside() : chosen[p].sub_graph().inside());
    }
    return GroupsAreAcyclic(graph, groups);
  };
  auto try_merge = [&](size_t i, size_t j) {
    const CandidatePartition& lhs = chosen[i];
    const CandidatePartition& rhs = chosen[j];
    if (!CanJoin(lhs, rhs, mergeable)) return false;
    const bool same_boundary = lhs.boundary_layouts() == rhs.boundary_layouts();
    if (!same_boundary && !across_layouts.offered) return false;
    SubGraph joined = lhs.sub_graph().DisjointUnion(graph, rhs.sub_graph());
    if (!joined.IsValid(graph, convex_only)) return false;
    if (!same_boundary) {
      const std::optional<PartitionLayouts> merged = MergedBoundary(graph, joined, lhs, rhs, across_layouts);
      if (!merged) return false;
      Attrs attrs = *PrimitiveAttrs(lhs.sub_graph());
      if (merged->IsPlain()) {
        attrs.Erase(attr::kBoundaryLayout);
      } else {
        attrs.Set(attr::kBoundaryLayout, PartitionLayoutsName(*merged));
      }
      joined = WithPrimitiveAttrs(graph, joined, std::move(attrs));
    }
    if (!keeps_acyclic(i, j, joined)) return false;
    rhs.sub_graph().inside().ForEach([&](size_t node) { partition_of[node] = i; });
    chosen[i] = CandidatePartition(std::move(joined), lhs.spec_name(), lhs.backend(), "coalesce");
    gone[j] = true;
    return true;
  };
  for (size_t row = next_present(0); row < chosen.size();) {
    bool merged = false;
    for (size_t j : touching(row)) {
      if (j > row && try_merge(row, j)) {
        merged = true;
        break;
      }
    }
    if (!merged) {
      row = next_present(row + 1);
      continue;
    }
    for (bool merged_earlier = true; merged_earlier;) {
      merged_earlier = false;
      for (size_t earlier : touching(row)) {
        if (earlier < row && try_merge(earlier, row)) {
          row = earlier;
          merged_earlier = true;
          break;
        }
      }
    }
  }
  std::vector<CandidatePartition> coalesced;
  for (size_t p = 0; p < chosen.size(); ++p) {
    if (!gone[p]) coalesced.push_back(std::move(chosen[p]));
  }
  return coalesced;
}

}  // namespace collage
