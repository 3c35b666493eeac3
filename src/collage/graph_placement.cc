#include "collage/graph_placement.h"

#include <algorithm>
#include <set>

#include "collage/coalesce_partitions.h"
#include "support/hash.h"

namespace collage {
namespace {

void SortByFirstInside(std::vector<CandidatePartition>& chosen) {
  std::sort(chosen.begin(), chosen.end(), [](const CandidatePartition& lhs, const CandidatePartition& rhs) {
    return lhs.sub_graph().first_inside() < rhs.sub_graph().first_inside();
  });
}

bool IsOpCall(const DataflowGraph& graph, size_t node) {
  const auto* call = As<CallNode>(graph.node(node).expr);
  return call != nullptr && call->op() != nullptr;
}

}  // namespace

uint64_t PlanHash(const std::vector<CandidatePartition>& chosen) {
  std::vector<const CandidatePartition*> sorted;
  for (const CandidatePartition& candidate : chosen) sorted.push_back(&candidate);
  std::sort(sorted.begin(), sorted.end(), [](const CandidatePartition* lhs, const CandidatePartition* rhs) {
    return lhs->sub_graph().first_inside() < rhs->sub_graph().first_inside();
  });
  size_t hash = HashValue(sorted.size());
  for (const CandidatePartition* candidate : sorted) {
    hash = HashCombine(hash, candidate->sub_graph().Hash());
    hash = HashCombine(hash, HashValue(candidate->spec_name()));
  }
  return hash;
}

GraphPlacementSpace::GraphPlacementSpace(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                                         std::vector<CandidatePartition> op_level, std::vector<std::string> region_specs,
                                         CostEstimator& estimator)
    : graph_(graph),
      candidates_(candidates),
      op_level_(std::move(op_level)),
      region_specs_(std::move(region_specs)),
      op_level_spec_(graph.size()),
      cover_search_(graph, candidates, estimator),
      gene_set_(graph.size()),
      offered_boundaries_(BoundariesOfCandidates(candidates)) {
  Check(!region_specs_.empty(), "graph-level search: no region spec to offer regions to");
  Check(region_specs_.size() < 256, "graph-level search: more than 255 region specs");
  std::set<std::string> named;
  for (const std::string& spec : region_specs_) {
    Check(named.insert(spec).second, "graph-level search: the region spec '" + spec + "' is named twice");
  }
  Check(GroupsAreAcyclic(graph_, InsideSets(op_level_)), "graph-level search: the op-level placement is cyclic");
  for (const CandidatePartition& chosen : op_level_) {
    for (size_t node : chosen.sub_graph().inside().ToVector()) op_level_spec_[node] = chosen.spec_name();
  }
  IndexSet runnable_elsewhere(graph.size());
  for (const CandidatePartition& candidate : candidates_) {
    if (!IsRegionSpec(candidate.spec_name())) continue;
    for (size_t node : candidate.sub_graph().inside().ToVector()) {
      if (op_level_spec_[node] != candidate.spec_name()) runnable_elsewhere.Add(node);
    }
  }
  for (size_t node : runnable_elsewhere.ToVector()) {
    if (!IsOpCall(graph_, node)) continue;
    gene_nodes_.push_back(node);
    gene_set_.Add(node);
  }
}

bool GraphPlacementSpace::IsRegionSpec(const std::string& spec) const {
  return std::find(region_specs_.begin(), region_specs_.end(), spec) != region_specs_.end();
}

Genome GraphPlacementSpace::AllTo(const std::string& spec) const {
  const auto found = std::find(region_specs_.begin(), region_specs_.end(), spec);
  Check(found != region_specs_.end(), "graph-level search: '" + spec + "' is not a region spec");
  return Genome(genes(), static_cast<uint8_t>(found - region_specs_.begin() + 1));
}

size_t GraphPlacementSpace::Contradicted(const std::string& spec, const IndexSet& inside,
                                         const std::vector<size_t>& asked) const {
  size_t contradicted = 0;
  for (size_t node : (inside & gene_set_).ToVector()) {
    if (asked[node] != kKeep) {
      contradicted += spec != region_specs_[asked[node]] ? 1 : 0;
    } else {
      contradicted += IsRegionSpec(spec) && spec != op_level_spec_[node] ? 1 : 0;
    }
  }
  return contradicted;
}

std::vector<CandidatePartition> GraphPlacementSpace::Place(const std::vector<size_t>& asked,
                                                           const IndexSet& wanted) const {
  std::vector<CandidatePartition> chosen;
  IndexSet region(graph_.size());
  for (const CandidatePartition& candidate : op_level_) {
    if (candidate.sub_graph().inside().AreDisjoint(wanted)) {
      chosen.push_back(candidate);
    } else {
      region |= candidate.sub_graph().inside();
    }
  }
  if (region.IsEmpty()) return chosen;
  const auto contradicted_genes = [&](size_t c) {
    const CandidatePartition& candidate = candidates_[c];
    return kViolationSeconds *
           static_cast<double>(Contradicted(candidate.spec_name(), candidate.sub_graph().inside(), asked));
  };
  const std::optional<SearchResult> cover = cover_search_.Cheapest(region, {}, contradicted_genes);
  Check(cover.has_value(), "graph-level search: no candidates cover the nodes " + region.ToString() +
                               " of the op-level partitions the genes break");
  chosen.insert(chosen.end(), cover->chosen.begin(), cover->chosen.end());
  return chosen;
}

GraphPlacement GraphPlacementSpace::Decode(const Genome& genome) const {
  Check(genome.size() == genes(), "graph-level search: a genome has " + std::to_string(genome.size()) +
                                      " genes, expected " + std::to_string(genes()));
  std::vector<size_t> requested(graph_.size(), kKeep);
  for (size_t gene = 0; gene < genes(); ++gene) {
    Check(genome[gene] < gene_values(), "graph-level search: gene " + std::to_string(gene) + " has the value " +
                                            std::to_string(genome[gene]) + ", expected below " +
                                            std::to_string(gene_values()));
    const size_t node = gene_nodes_[gene];
    if (genome[gene] == 0 || region_specs_[genome[gene] - 1] == op_level_spec_[node]) continue;
    requested[node] = genome[gene] - 1;
  }
  std::vector<size_t> asked = requested;
  IndexSet wanted(graph_.size());
  for (size_t node : gene_nodes_) {
    if (asked[node] != kKeep) wanted.Add(node);
  }
  std::vector<CandidatePartition> chosen = Place(asked, wanted);
  for (size_t dropped = genes(); !GroupsAreAcyclic(graph_, InsideSets(chosen));) {
    do {
      --dropped;
    } while (asked[gene_nodes_[dropped]] == kKeep);
    asked[gene_nodes_[dropped]] = kKeep;
    wanted.Remove(gene_nodes_[dropped]);
    chosen = Place(asked, wanted);
  }
  GraphPlacement placement;
  placement.chosen = MergeAcrossLayouts(std::move(chosen));
  placement.hash = PlanHash(placement.chosen);
  for (const CandidatePartition& candidate : placement.chosen) {
    placement.unhonoured_genes += Contradicted(candidate.spec_name(), candidate.sub_graph().inside(), requested);
  }
  return placement;
}

std::vector<CandidatePartition> GraphPlacementSpace::MergeAcrossLayouts(std::vector<CandidatePartition> chosen,
                                                                        bool keep_crossing_bytes) const {
  SortByFirstInside(chosen);
  const AcrossLayouts across{offered_boundaries_, keep_crossing_bytes};
  std::vector<CandidatePartition> merged = CoalescePartitions(
      graph_, std::move(chosen), [this](const CandidatePartition& candidate) { return IsRegionSpec(candidate.spec_name()); },
      across);
  SortByFirstInside(merged);
  return merged;
}

}  // namespace collage
