// The Collage partitioner, phases 1-4 over one function or a whole module.
//
// Phase 2 collects every spec's candidates, phase 3 searches the cheapest placement
// (search.h), phase 4 rewrites the chosen candidates "in parallel" (outline_partitions.h):
// each candidate wrapped as Primitive becomes a call to a function with Primitive=1,
// Compiler=<backend> and a unique global_symbol "<backend>_<n>", calling the Composite
// functions nested in it; host candidates stay as they are. Touching chosen partitions of one
// backend that `coalesce` accepts are merged first whenever the merged sub-graph stays convex
// and the placement stays acyclic (and their boundaries agree, or `coalesce_across_layouts`
// finds one for the merged partition).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collage/coalesce_partitions.h"
#include "collage/cost_estimator.h"
#include "collage/explain.h"
#include "collage/partition_rule.h"
#include "collage/search.h"
#include "collage/whole_region_comparison.h"
#include "ir/name_supply.h"
#include "pass/pass.h"

namespace collage {

struct PartitionOptions {
  SearchOptions search;
  // Which chosen partitions may be merged with touching ones of their backend; unset: none.
  std::function<bool(const CandidatePartition&)> coalesce;
  // Also merge those whose boundaries differ, where a boundary some candidate of the spec has
  // keeps the bytes of every value crossing the merged partition (CoalescePartitions with
  // AcrossLayouts::keep_crossing_bytes): the conversions between them go, the others stay.
  bool coalesce_across_layouts = false;
  // After the search, the coalesced choice is compared with each of these region specs'
  // whole-region placements, which may replace it (whole_region_comparison.h). Empty: no
  // comparison, the search's coalesced choice is the choice.
  std::vector<std::string> whole_region_specs = {};
  bool explain = false;  // fill PartitionResult::explanation
  // Threads enumerating candidates, each spec by one thread; the candidates and their order do
  // not depend on it. Every spec's rules (and its backend's predicates) must then be safe to run
  // beside another spec's.
  int threads = 1;
};

struct PartitionResult {
  Function function;
  std::vector<CandidatePartition> chosen;  // after coalescing
  std::vector<std::string> symbols;        // per chosen candidate: its global_symbol, "" for host
  Cost total = Cost::Zero();               // of `chosen`, with the search's penalties (PlacementCost)
  SearchStats stats;
  // The search's placement explained (before coalescing); set when options.explain.
  std::optional<Explanation> explanation;
  // The comparison with whole regions, when options.whole_region_specs asked for one.
  std::optional<WholeRegionComparison> whole_regions;
};

// Phases 2 and 3 over one function, before the rewrite: its dataflow graph, every spec's
// candidates, the search's answer and the chosen candidates (coalesced when asked, then
// replaced by a whole region of options.whole_region_specs when the comparison prefers one;
// checked acyclic). Runs InferType first when the function is not typed.
struct OpLevelPlacement {
  DataflowGraph graph;
  std::vector<CandidatePartition> candidates;
  SearchResult search;
  std::vector<CandidatePartition> chosen;
  std::optional<WholeRegionComparison> whole_regions;
};
OpLevelPlacement PlaceOpLevel(const Function& function, const std::vector<PartitionSpec>& specs,
                              CostEstimator& estimator, const PartitionOptions& options = {});

// Phase 4 for `chosen` (a valid, acyclic placement over `placement.graph`), with the op-level
// totals, statistics and, when options.explain, the op-level explanation.
PartitionResult OutlinePlacement(const Function& function, const OpLevelPlacement& placement,
                                 std::vector<CandidatePartition> chosen, CostEstimator& estimator,
                                 const PartitionOptions& options, NameSupply& names);

// PlaceOpLevel then OutlinePlacement of its choice. `names`, when given, supplies the global
// symbols (one supply for the functions of a module); else they are numbered from 0.
PartitionResult Partition(const Function& function, const std::vector<PartitionSpec>& specs, CostEstimator& estimator,
                          const PartitionOptions& options = {}, NameSupply* names = nullptr);

// Partition over every function of a module.
Pass CollagePartition(std::vector<PartitionSpec> specs, std::shared_ptr<CostEstimator> estimator,
                      PartitionOptions options = {});

}  // namespace collage
