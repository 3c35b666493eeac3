// The function a backend compiles for one candidate partition, built exactly as phase 4
// (outline_partitions.h) would build it in the final plan: Primitive=1, Compiler=<backend>,
// the candidate's nested Composite functions called from its body, the constants it uses
// inlined, one parameter per non-constant input. Measuring this function measures what
// the plan will run.
#pragma once

#include "collage/candidate_partition.h"

namespace collage {

// Null for a candidate without a Primitive wrapping (the host keeps it: nothing to compile).
Function ExtractPartitionFunction(const DataflowGraph& graph, const CandidatePartition& candidate);

}  // namespace collage
