// Classic BYOC partitioning, the greedy baseline:
//   MergeComposite        matches of the backends' pattern tables become Composite calls
//                         (merge_composite.h has the priority rule);
//   AnnotateTarget        each op call (or Composite call) goes to the first backend, in
//                         priority order, that supports it; others stay on the host;
//   MergeCompilerRegions  adjacent calls of the same backend merge into regions as long as
//                         the region graph stays acyclic;
//   PartitionGraph        each region becomes a call to a function with Primitive=1,
//                         Compiler=<backend> and a unique global_symbol.
#pragma once

#include <optional>
#include <vector>

#include "declaration/support_declaration.h"
#include "ir/name_supply.h"
#include "pass/fuse_ops/indexed_forward_graph.h"
#include "pass/pass.h"

namespace collage {

// The backend of each node and the regions, over the nodes of one function body.
struct RegionAssignment {
  IndexedForwardGraph graph;
  std::vector<std::optional<size_t>> backend_of;  // index into the declarations; nullopt: host
  std::vector<size_t> region_parent;              // union-find over node indices

  size_t RegionOf(size_t node);
};

RegionAssignment AnnotateTarget(const Expr& body, const std::vector<SupportDeclaration>& backends);
void MergeCompilerRegions(RegionAssignment& assignment);
// Outlines every region; `names` supplies the global symbols ("<backend>_<n>").
Expr PartitionGraph(RegionAssignment& assignment, const std::vector<SupportDeclaration>& backends,
                    NameSupply& names);

// The four steps over every function of a module.
Pass PartitionGreedy(std::vector<SupportDeclaration> backends_in_priority_order);
Pass PartitionFor(SupportDeclaration backend);

}  // namespace collage
