// Genes <-> placements for the graph-level search.
//
// The search offers whole regions to its *region specs*: the specs of backends that optimize
// across the ops of one partition (graph runtimes such as XNNPACK, libraries that keep blocked
// layouts inside a partition such as oneDNN), so that one partition over a region beats the
// region's ops placed one by one — which the op-level search, adding isolated costs, cannot see.
//
// One gene per operator (op-call node) that some region spec other than the node's op-level
// spec can run (some candidate of that spec contains the node), in increasing node order.
// Gene value 0 keeps the op-level choice; value k >= 1 gives the node to region spec k - 1
// (a value naming the node's op-level spec is the same as 0). Decode turns genes into a valid
// placement:
//   1. wanted = the nodes whose gene asks for a spec other than their op-level one;
//   2. op-level partitions disjoint from `wanted` are kept as they are; the others are broken
//      and their nodes form the region to re-place;
//   3. that region is covered by the cheapest cover (CoverSearch on the estimator's costs)
//      that honours the most genes: every candidate inside the region may be used, but each
//      gene it contradicts (a candidate of another spec on a wanted node, a region spec's
//      candidate other than the op-level one on a kept node) adds kViolationSeconds, far above
//      any plan's cost. So a gene is dropped only when no cover of its node by the asked spec
//      fits (its candidates all need nodes wanted elsewhere or kept);
//   4. if the kept and new partitions together form a cycle, the wanted node with the highest
//      gene is given back to its op-level choice and the decoding starts again (the all-0
//      placement, the op-level one, is acyclic);
//   5. touching partitions of one region spec are merged while the placement stays acyclic
//      (CoalescePartitions), across boundary layouts where the merged partition can take a
//      boundary that some candidate of its spec is offered in (MergeAcrossLayouts).
// The result lists the partitions by first inside node, so equal placements are equal lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/coalesce_partitions.h"
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
  // when it is cyclic, and when `region_specs` is empty, repeats a name or has more than 255.
  // A region spec without candidates adds no genes.
  GraphPlacementSpace(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                      std::vector<CandidatePartition> op_level, std::vector<std::string> region_specs,
                      CostEstimator& estimator);

  size_t genes() const { return gene_nodes_.size(); }
  // Values a gene takes: 0 (keep) and one per region spec.
  size_t gene_values() const { return region_specs_.size() + 1; }
  // The node of each gene, increasing.
  const std::vector<size_t>& gene_nodes() const { return gene_nodes_; }
  const std::vector<std::string>& region_specs() const { return region_specs_; }
  const std::vector<CandidatePartition>& op_level() const { return op_level_; }
  bool IsRegionSpec(const std::string& spec) const;
  // The genome asking for `spec` (a region spec) on every gene; throws Error for another name.
  Genome AllTo(const std::string& spec) const;

  // Throws Error when the genome's length differs from genes() or a gene is >= gene_values().
  GraphPlacement Decode(const Genome& genome) const;

  // `chosen` (a placement over the graph) with touching partitions of one region spec merged,
  // also where their boundary layouts differ (CoalescePartitions with the boundaries the spec's
  // candidates are offered in, keeping or not the bytes crossing the merged boundaries); sorted
  // by first inside node.
  std::vector<CandidatePartition> MergeAcrossLayouts(std::vector<CandidatePartition> chosen,
                                                     bool keep_crossing_bytes = true) const;

 private:
  // `asked[node]`: the region spec index wanted for the node, or kKeep.
  std::vector<CandidatePartition> Place(const std::vector<size_t>& asked, const IndexSet& wanted) const;
  // Genes of `inside` the spec `spec` contradicts under `asked`.
  size_t Contradicted(const std::string& spec, const IndexSet& inside, const std::vector<size_t>& asked) const;

  static constexpr size_t kKeep = static_cast<size_t>(-1);

  const DataflowGraph& graph_;
  const std::vector<CandidatePartition>& candidates_;
  std::vector<CandidatePartition> op_level_;
  std::vector<std::string> region_specs_;
  std::vector<std::string> op_level_spec_;  // per node; "" for nodes in no partition
  CoverSearch cover_search_;
  std::vector<size_t> gene_nodes_;
  IndexSet gene_set_;
  BoundaryOffered offered_boundaries_;  // the boundaries some candidate of each spec has
};

}  // namespace collage
