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

// Greedily merges touching f32 Primitive partitions of one backend and boundary layout that
// `mergeable` accepts, earliest pairs first, until no pair merges (a reduced-precision partition
// quantizes only its parameters, so merging two would compute the second's products in f32). A merged partition keeps the earlier one's
// position, spec and backend, with rule name "coalesce". Deterministic.
std::vector<CandidatePartition> CoalescePartitions(const DataflowGraph& graph, std::vector<CandidatePartition> chosen,
                                                   const std::function<bool(const CandidatePartition&)>& mergeable);

}  // namespace collage
