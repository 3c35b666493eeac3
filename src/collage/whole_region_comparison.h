// The op-level placement checked against each region spec's whole region.
//
// The op-level search adds the isolated costs of small candidates, so it cannot see what one
// partition over a whole region gains: a graph runtime scheduling its ops together, a library
// keeping its layouts and threads warm, one hand-over instead of many. A placement that the
// search would never assemble can then be cheaper, by the same estimator, than its answer.
// So after the search each region spec's whole-region placement (everything the spec can
// take, GraphPlacementSpace::AllTo, merged into as few partitions as stay acyclic, changing
// boundary layouts where that merges more: the placement of running that backend alone) is
// priced like the search's coalesced choice (PlacementCost), and the cheapest of them is the
// op-level answer, a whole region also when it costs at most kWholeRegionPreference more than the
// searched placement. Each is a few large partitions, whose isolated cost is close to their
// cost inside the model, while the searched placement's estimate adds up more partitions, each
// somewhat slower inside the model than alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/cost.h"
#include "collage/cost_estimator.h"
#include "collage/dataflow_graph.h"
#include "collage/search.h"

namespace collage {

// How much more than the searched placement a whole region may cost and still replace it: about
// the spread of repeated timings here. squeezenet1_1's searched placement of 12 partitions was
// estimated 1.2 % below oneDNN's whole region and measured 3.8 % above it in the model.
inline constexpr double kWholeRegionPreference = 0.02;

struct WholeRegionAlternative {
  std::string spec;
  std::vector<CandidatePartition> chosen;  // by first inside node
  Cost cost = Cost::Unknown();             // PlacementCost, Invalid when a partition fails
};

struct WholeRegionComparison {
  Cost searched_cost = Cost::Unknown();  // of the search's coalesced choice
  // Per region spec whose whole-region placement differs from the search's choice, in the order
  // of the specs.
  std::vector<WholeRegionAlternative> alternatives;
  // The alternative that replaced the search's choice (cheaper than it raised by
  // kWholeRegionPreference, and strictly cheaper than the alternatives before it), or none.
  std::optional<size_t> kept;

  // "searched 4.40 ms, all xnnpack 3.80 ms, all onednn 4.38 ms: all xnnpack is kept".
  std::string ToString() const;
};

// Prices each of `region_specs`' whole-region placements over `graph` and compares them with
// `searched` (a valid, acyclic placement from `candidates`, e.g. the search's coalesced choice).
// `options` are the search's (its penalties). An empty `region_specs` compares nothing.
WholeRegionComparison CompareWithWholeRegions(const DataflowGraph& graph,
                                              const std::vector<CandidatePartition>& candidates,
                                              const std::vector<CandidatePartition>& searched,
                                              const std::vector<std::string>& region_specs, CostEstimator& estimator,
                                              const SearchOptions& options);

}  // namespace collage
