#include "collage/coalesce_partitions.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "collage/outline_partitions.h"
#include "collage/sub_graph_boundary.h"

namespace collage {
namespace {

// The bytes of the values in `values` that a partition with boundary `boundary` and layouts
// `layouts` reads (`reads`) or leaves (otherwise) whose bytes differ between its layout for that
// side and `layout`.
double ChangedBytes(const DataflowGraph& graph, const IndexSet& values, const SubGraphBoundary& boundary,
                    const PartitionLayouts& layouts, bool reads, Layout layout) {
  return reads ? BytesChangedBetween(graph, values & boundary.input, layouts.parameters, layout)
               : BytesChangedBetween(graph, values & boundary.exit, layouts.results, layout);
}

// A partition while coalescing: the union of the original partitions merged into it so far.
struct GrowingPartition {
  SubGraphBoundary boundary;
  PartitionLayouts layouts;
  JoinedLabel label;
  // The Primitive attributes of a partition whose boundary changed in a merge; null: the first
  // original partition's.
  std::shared_ptr<const Attrs> relaid_attrs;
  size_t last_piece = 0;  // the last original partition in merge order
};

// The offered boundary of `joined` (lhs and rhs merged), with one of the two parameter layouts
// (or plain) and one of the two result layouts (or plain), under which the fewest bytes crossing
// it differ from the bytes they had crossing lhs or rhs, the first such in that order; nullopt
// when none is offered, or when `across.keep_crossing_bytes` and every one changes some.
std::optional<PartitionLayouts> MergedBoundary(const DataflowGraph& graph, const SubGraphBoundary& joined,
                                               const GrowingPartition& lhs, const GrowingPartition& rhs,
                                               const std::string& spec_name, const AcrossLayouts& across) {
  std::optional<PartitionLayouts> best;
  double fewest_bytes = 0;
  for (Layout parameters : {lhs.layouts.parameters, rhs.layouts.parameters, Layout::kPlain}) {
    for (Layout results : {lhs.layouts.results, rhs.layouts.results, Layout::kPlain}) {
      const PartitionLayouts merged(parameters, results);
      if (!across.offered(spec_name, merged)) continue;
      double bytes = 0;
      for (const GrowingPartition* side : {&lhs, &rhs}) {
        bytes += ChangedBytes(graph, joined.input, side->boundary, side->layouts, true, parameters) +
                 ChangedBytes(graph, joined.exit, side->boundary, side->layouts, false, results);
      }
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
// keep the scan's order without moving the partitions after it. While merging, a partition is only
// its boundary (derived from the two sides' boundaries) and the list of original partitions in it;
// each merged sub-graph is built once, at the end. The whole-placement acyclicity check is skipped
// where the merge cannot close a cycle: when every consumer of the producing side lies in the
// consuming side, or every producer (with inputs of its own) of the consuming side lies in the
// producing side, no path between the two runs through a third partition. On a chain that is every
// merge, which keeps coalescing it linear in the merges.
std::vector<CandidatePartition> CoalescePartitions(const DataflowGraph& graph, std::vector<CandidatePartition> chosen,
                                                   const std::function<bool(const CandidatePartition&)>& mergeable,
                                                   const AcrossLayouts& across_layouts) {
  constexpr size_t kNone = static_cast<size_t>(-1);
  const size_t count = chosen.size();
  std::vector<bool> gone(count, false);
  std::vector<bool> joinable(count, false);
  std::vector<GrowingPartition> growing(count);
  std::vector<size_t> next_piece(count, kNone);  // merge order of the original partitions in each
  std::vector<size_t> partition_of(graph.size(), kNone);
  for (size_t p = 0; p < count; ++p) {
    const CandidatePartition& partition = chosen[p];
    joinable[p] = partition.precision() == DType::kF32 && PrimitiveAttrs(partition.sub_graph()) && mergeable(partition);
    growing[p] = GrowingPartition{SubGraphBoundary::Of(partition.sub_graph()), partition.boundary_layouts(),
                                  partition.sub_graph().joined_label(), nullptr, p};
    partition.sub_graph().inside().ForEach([&](size_t node) { partition_of[node] = p; });
  }
  auto next_present = [&](size_t p) {
    while (p < count && gone[p]) ++p;
    return p;
  };
  // The partitions holding an input or an output of partition p, ascending.
  auto touching = [&](size_t p) {
    std::vector<size_t> neighbours;
    for (const IndexSet* boundary : {&growing[p].boundary.input, &growing[p].boundary.output}) {
      boundary->ForEach([&](size_t node) {
        if (partition_of[node] != kNone) neighbours.push_back(partition_of[node]);
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
    growing[producer].boundary.output.ForEach([&](size_t node) { only_consumer &= partition_of[node] == consumer; });
    if (only_consumer) return true;
    bool only_producer = true;
    growing[consumer].boundary.input.ForEach([&](size_t node) {
      only_producer &= partition_of[node] == producer || graph.node(node).inputs.empty();
    });
    return only_producer;
  };
  auto keeps_acyclic = [&](size_t i, size_t j, const SubGraphBoundary& joined) {
    const bool i_feeds_j = growing[i].boundary.output.Intersects(growing[j].boundary.inside);
    if (i_feeds_j ? only_link(i, j) : only_link(j, i)) return true;
    std::vector<IndexSet> groups;
    for (size_t p = 0; p < count; ++p) {
      if (gone[p] || p == j) continue;
      groups.push_back(p == i ? joined.inside : growing[p].boundary.inside);
    }
    return GroupsAreAcyclic(graph, groups);
  };
  auto try_merge = [&](size_t i, size_t j) {
    GrowingPartition& lhs = growing[i];
    const GrowingPartition& rhs = growing[j];
    if (chosen[i].backend() != chosen[j].backend() || !joinable[i] || !joinable[j] ||
        !lhs.boundary.Touches(rhs.boundary)) {
      return false;
    }
    const bool same_boundary = lhs.layouts == rhs.layouts;
    if (!same_boundary && !across_layouts.offered) return false;
    SubGraphBoundary joined = lhs.boundary.DisjointUnion(graph, rhs.boundary);
    if (!joined.IsConvex(graph)) return false;
    std::optional<PartitionLayouts> relaid;
    if (!same_boundary) {
      relaid = MergedBoundary(graph, joined, lhs, rhs, chosen[i].spec_name(), across_layouts);
      if (!relaid) return false;
    }
    if (!keeps_acyclic(i, j, joined)) return false;
    rhs.boundary.inside.ForEach([&](size_t node) { partition_of[node] = i; });
    lhs.label = lhs.boundary.first_inside < rhs.boundary.first_inside ? JoinedLabel::Join(lhs.label, rhs.label)
                                                                      : JoinedLabel::Join(rhs.label, lhs.label);
    lhs.boundary = std::move(joined);
    if (relaid) {
      Attrs attrs = lhs.relaid_attrs ? *lhs.relaid_attrs : *PrimitiveAttrs(chosen[i].sub_graph());
      if (relaid->IsPlain()) {
        attrs.Erase(attr::kBoundaryLayout);
      } else {
        attrs.Set(attr::kBoundaryLayout, PartitionLayoutsName(*relaid));
      }
      lhs.relaid_attrs = std::make_shared<const Attrs>(std::move(attrs));
      lhs.layouts = *relaid;
    }
    next_piece[lhs.last_piece] = j;
    lhs.last_piece = rhs.last_piece;
    gone[j] = true;
    return true;
  };
  for (size_t row = next_present(0); row < count;) {
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
  // Each merged partition's sub-graph: the original partitions' wrappings in merge order, every
  // Primitive one taking the merged boundary when it changed.
  std::vector<CandidatePartition> coalesced;
  for (size_t p = 0; p < count; ++p) {
    if (gone[p]) continue;
    if (next_piece[p] == kNone) {
      coalesced.push_back(std::move(chosen[p]));
      continue;
    }
    std::vector<NestedSubGraph> nested;
    for (size_t piece = p; piece != kNone; piece = next_piece[piece]) {
      for (const NestedSubGraph& wrapping : chosen[piece].sub_graph().nested()) {
        nested.push_back(wrapping);
        if (growing[p].relaid_attrs && wrapping.attrs->Has(attr::kPrimitive)) {
          nested.back().attrs = growing[p].relaid_attrs;
        }
      }
    }
    SubGraph merged(graph, std::move(growing[p].boundary.inside), std::move(growing[p].label), std::move(nested));
    coalesced.emplace_back(std::move(merged), chosen[p].spec_name(), chosen[p].backend(), "coalesce");
  }
  return coalesced;
}

}  // namespace collage
