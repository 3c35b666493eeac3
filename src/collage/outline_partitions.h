// Phase 4 of the Collage partitioner: rewrites a function body for the chosen candidates "in
// parallel".
//
// Every chosen candidate wrapped as Primitive becomes a call to a function with its
// Primitive=1 and Compiler=<backend> attributes and a unique global_symbol "<backend>_<n>";
// host candidates stay as they are. Wrappings nested inside a candidate (the Composite
// functions of a backend's pattern table) are outlined first, innermost first, so that a
// Primitive function calls its Composite functions. Nested wrappings must be single-exit
// (CompositePartitionRule guarantees it). Constants used by a partition are copied into its
// function (sharing the tensor data) rather than passed as parameters, so that a backend sees
// its weights when it compiles.
#pragma once

#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "ir/name_supply.h"

namespace collage {

// A reduced-precision candidate's ActivationRanges (backend/precision.h) hold a range per
// non-constant input in index order (NonConstantInputs); its function gets them in parameter
// order.
std::vector<size_t> NonConstantInputs(const DataflowGraph& graph, const SubGraph& sub_graph);

// The Primitive wrapping of a candidate, or null when it has none (a host candidate).
const Attrs* PrimitiveAttrs(const SubGraph& sub_graph);
// `sub_graph` with the attributes of its Primitive wrappings (one per part of a merged partition)
// replaced by `attrs`.
SubGraph WithPrimitiveAttrs(const DataflowGraph& graph, const SubGraph& sub_graph, Attrs attrs);

// `graph` is the dataflow graph of `function`'s body; `chosen` are disjoint candidates over
// it whose groups are acyclic. `names` supplies the global symbols. Returns the new,
// type-checked function; `symbols`, when given, receives each chosen candidate's global
// symbol ("" for a host candidate).
Function OutlinePartitions(const Function& function, const DataflowGraph& graph,
                           const std::vector<CandidatePartition>& chosen, NameSupply& names,
                           std::vector<std::string>* symbols = nullptr);

}  // namespace collage
