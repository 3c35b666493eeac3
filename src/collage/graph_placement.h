// Genes <-> placements for the graph-level search (DESIGN §8, "Graph-level optimizer").
//
// One gene per operator (op-call node) that the graph-runtime spec can run at all (some of its
// candidates contains the node) and that the op-level placement did not already give to it,
// in increasing node order. Gene 1: give the node to the graph runtime; gene 0: keep the
// op-level choice. Decode turns genes into a valid placement:
//   1. wanted = the nodes of the 1-genes;
//   2. op-level partitions disjoint from `wanted` are kept as they are; the others are broken
//      and their nodes form the region to re-place;
//   3. that region is covered by the cheapest cover (CoverSearch on the estimator's costs)
//      that honours the most genes: every candidate inside the region may be used, but each
//      gene it contradicts (a graph-runtime candidate on a 0-gene node, another spec's
//      candidate on a 1-gene node) adds kViolationSeconds, far above any plan's cost. So a
//      1-gene is dropped only when no graph-runtime cover of its node fits inside `wanted`
//      (its candidates all need nodes whose gene is 0);
//   4. if the kept and new partitions together form a cycle, the 1-gene of the highest node is
//      dropped and the decoding starts again (the all-0 placement, the op-level one, is
//      acyclic);
//   5. touching graph-runtime partitions are merged while the placement stays acyclic
//      (CoalescePartitions).
// The result lists the partitions by first inside node, so equal placements are equal lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/evolutionary_search.h"
#include "collage/search.h"

namespace collage {

// The surcharge per contradicted gene while repairing (seconds).
inline constexpr double kViolationSeconds = 1e4;

struct GraphPlacement {
  std::vector<CandidatePartition> chosen;  // disjoint, acyclic, every node once; by first inside node
  uint64_t hash = 0;                       // PlanHash(chosen)
  size_t unhonoured_genes = 0;             // genes the repair had to contradict
};

// Hash of the sorted (sub-graph, spec name) pairs: equal for equal placements.
uint64_t PlanHash(const std::vector<CandidatePartition>& chosen);

class GraphPlacementSpace {
 public:
  // Keeps references to `graph`, `candidates` and `estimator`. `op_level` must be a valid,
  // acyclic placement over `graph` built from candidates of the same specs; throws Error
  // when it is cyclic. No candidate of `graph_runtime_spec`: no genes.
  GraphPlacementSpace(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                      std::vector<CandidatePartition> op_level, std::string graph_runtime_spec,
                      CostEstimator& estimator);

  size_t genes() const { return gene_nodes_.size(); }
  // The node of each gene, increasing.
  const std::vector<size_t>& gene_nodes() const { return gene_nodes_; }
  const std::string& graph_runtime_spec() const { return graph_runtime_spec_; }
  const std::vector<CandidatePartition>& op_level() const { return op_level_; }
  bool IsGraphRuntime(const CandidatePartition& candidate) const {
    return candidate.spec_name() == graph_runtime_spec_;
  }

  // Throws Error when the genome's length differs from genes().
  GraphPlacement Decode(const Genome& genome) const;

 private:
  std::vector<CandidatePartition> Place(const IndexSet& wanted) const;

  const DataflowGraph& graph_;
  const std::vector<CandidatePartition>& candidates_;
  std::vector<CandidatePartition> op_level_;
  std::string graph_runtime_spec_;
  CoverSearch cover_search_;
  std::vector<size_t> gene_nodes_;
  IndexSet gene_set_;
};

}  // namespace collage
