// Merging touching partitions of one backend into larger ones, and the acyclicity check that
// guards it (phase 4's optional coalescing, and the graph-level search's graph-runtime merge).
//
// A merged partition is convex and the placement stays acyclic (its groups contracted to one
// node each leave a DAG); merges that would break either are skipped.
#pragma once

#include <functional>
#include <vector>

#include "collage/candidate_partition.h"

namespace collage {

// True when contracting each group (sets of nodes) to one node leaves the graph acyclic.
bool GroupsAreAcyclic(const DataflowGraph& graph, const std::vector<IndexSet>& groups);

// The inside sets of the candidates, in order.
std::vector<IndexSet> InsideSets(const std::vector<CandidatePartition>& candidates);

// Whether partitions of the spec named `spec_name` may take the boundary `layouts`.
using BoundaryOffered = std::function<bool(const std::string& spec_name, const PartitionLayouts& layouts)>;

// The boundaries some of `candidates` of each spec are offered in (the returned rule keeps its own
// copy of them).
BoundaryOffered BoundariesOfCandidates(const std::vector<CandidatePartition>& candidates);

// Whether and how CoalescePartitions merges partitions whose boundaries differ.
struct AcrossLayouts {
  BoundaryOffered offered;  // the boundaries a merged partition may take; null: such partitions stay apart
  // True: only where every value crossing the merged boundary keeps the bytes it had crossing the
  // two, so the conversions around it stay as they were. False: in the boundary that changes the
  // fewest such bytes (conversions may move to the merged partition's neighbours).
  bool keep_crossing_bytes = true;
};

// Greedily merges touching f32 Primitive partitions of one backend that `mergeable` accepts,
// earliest pairs first, until no pair merges (a reduced-precision partition quantizes only its
// parameters, so merging two would compute the second's products in f32). A merged partition
// keeps the earlier one's position, spec and backend, with rule name "coalesce". Deterministic.
//
// Without `across_layouts.offered`, only partitions with equal boundaries merge. With it,
// partitions with different boundaries merge too, in an offered boundary with one of the two
// parameter layouts (or plain) and one of the two result layouts (or plain), as
// `keep_crossing_bytes` allows; the conversions between the two are gone. E.g. a plain>nchw8c
// partition feeding an nchw8c>plain one becomes one plain partition that keeps its blocked values
// inside.
std::vector<CandidatePartition> CoalescePartitions(const DataflowGraph& graph, std::vector<CandidatePartition> chosen,
                                                   const std::function<bool(const CandidatePartition&)>& mergeable,
                                                   const AcrossLayouts& across_layouts = {});

}  // namespace collage
