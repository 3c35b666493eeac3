#include "collage/graph_placement.h"

#include <algorithm>

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
                                         std::vector<CandidatePartition> op_level, std::string graph_runtime_spec,
                                         CostEstimator& estimator)
    : graph_(graph),
      candidates_(candidates),
      op_level_(std::move(op_level)),
      graph_runtime_spec_(std::move(graph_runtime_spec)),
      cover_search_(graph, candidates, estimator),
      gene_set_(graph.size()) {
  Check(GroupsAreAcyclic(graph_, InsideSets(op_level_)), "graph-level search: the op-level placement is cyclic");
  IndexSet runnable(graph.size());
  for (const CandidatePartition& candidate : candidates_) {
    if (IsGraphRuntime(candidate)) runnable |= candidate.sub_graph().inside();
  }
  for (const CandidatePartition& chosen : op_level_) {
    if (IsGraphRuntime(chosen)) runnable = runnable - chosen.sub_graph().inside();
  }
  for (size_t node : runnable.ToVector()) {
    if (!IsOpCall(graph_, node)) continue;
    gene_nodes_.push_back(node);
    gene_set_.Add(node);
  }
}

std::vector<CandidatePartition> GraphPlacementSpace::Place(const IndexSet& wanted) const {
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
    const IndexSet& inside = candidates_[c].sub_graph().inside();
    const size_t contradicted =
        IsGraphRuntime(candidates_[c]) ? ((inside & gene_set_) - wanted).Count() : (inside & wanted).Count();
    return kViolationSeconds * static_cast<double>(contradicted);
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
  IndexSet wanted(graph_.size());
  for (size_t gene = 0; gene < genes(); ++gene) {
    if (genome[gene]) wanted.Add(gene_nodes_[gene]);
  }
  std::vector<CandidatePartition> chosen = Place(wanted);
  for (size_t dropped = genes(); !GroupsAreAcyclic(graph_, InsideSets(chosen));) {
    do {
      --dropped;
    } while (!genome[dropped]);
    wanted.Remove(gene_nodes_[dropped]);
    chosen = Place(wanted);
  }
  SortByFirstInside(chosen);

  GraphPlacement placement;
  placement.chosen = CoalescePartitions(graph_, std::move(chosen),
                                        [this](const CandidatePartition& candidate) { return IsGraphRuntime(candidate); });
  placement.hash = PlanHash(placement.chosen);
  IndexSet on_graph_runtime(graph_.size());
  for (const CandidatePartition& candidate : placement.chosen) {
    if (IsGraphRuntime(candidate)) on_graph_runtime |= candidate.sub_graph().inside();
  }
  for (size_t gene = 0; gene < genes(); ++gene) {
    if (on_graph_runtime[gene_nodes_[gene]] != (genome[gene] != 0)) ++placement.unhonoured_genes;
  }
  return placement;
}

}  // namespace collage
