// Phases 2 and 3: index the candidates by their first inside node, then find the cheapest
// placement by Dijkstra over covered node sets.
//
// A state is the set of covered nodes (parameters are covered from the start) plus, when a
// transition penalty is given, what the penalties still to come depend on: for each covered
// node next to an uncovered one, the side (spec and boundary layout) that computed its value
// and, while it still waits for an input, which partition holds it. From a state only candidates that contain the
// first uncovered node and are disjoint from the covered set are tried, so each placement is
// reached in one canonical order. Edge cost = the candidate's cost + the penalties of the
// dataflow edges between it and the covered nodes. Candidates whose cost is Invalid or
// Unknown are skipped.
//
// The search is A*: states are taken in order of their cost so far plus a lower bound on
// covering the rest (search_bounds.h), so the first complete state taken is optimal for this
// additive cost model. With a transition penalty and its bound, a state is dropped when
// another with the same covered set is cheaper by more than all the penalties its boundary
// can still cost.
// When the states outgrow SearchOptions::max_states the search starts again keyed by the
// covered set alone (the cheapest path to a covered set keeps its boundary; penalties that a
// dearer path would have avoided later are then missed): as many states as the search
// without penalty needs. SearchStats::exact says which answered.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/cost_estimator.h"
#include "collage/partition_rule.h"
#include "support/partition_layouts.h"

namespace collage {

// One side of a dataflow edge between partitions: the partition's spec and the layouts its
// boundary takes (backend/boundary_layout.h). The model's parameters and results are the side
// {"", plain}.
struct PartitionSide {
  std::string spec;
  PartitionLayouts layouts;
  bool operator==(const PartitionSide& other) const = default;
  // Whether handing a value from a partition of this side to another of `consumer` can never
  // cost anything: the same side, whose partitions read the layout they write.
  bool HandsOverFreelyTo(const PartitionSide& consumer) const { return *this == consumer && layouts.IsUniform(); }
};

struct SearchOptions {
  // Seconds added for handing the value of node `value` from a partition of side `producer`
  // to another partition of side `consumer` (unless producer.HandsOverFreelyTo(consumer)):
  // charged once per value and consuming
  // partition, from the model's side for parameters and to it for the body's results; never
  // for constants or host partitions. Unset: no penalty.
  std::function<double(const PartitionSide& producer, const PartitionSide& consumer, size_t value,
                       const DataflowGraph& graph)>
      transition_penalty;
  // Seconds added once per partition for every other spec it takes values from (by its
  // parameters or by projections of that spec's tuples): running a partition right after one of
  // another backend, beyond both partitions' own costs. Never for the model's side or host
  // partitions. Unset: none. Needs `transition_penalty`.
  std::function<double(const PartitionSide& producer, const PartitionSide& consumer)> hand_over_penalty;
  // The most `transition_penalty` plus `hand_over_penalty` may charge for handing over node
  // `value`, whatever the two sides. Optional; when set, states that cannot beat another with
  // the same covered set are dropped (the result stays exact).
  std::function<double(size_t value, const DataflowGraph& graph)> transition_penalty_bound;
  // The spec of the candidates that compute nothing (tuples, projections, constants; "" for
  // none). Handing values to them costs nothing, and a node of theirs with one producer (a
  // projection) passes on the side of that producer's value.
  std::string host_spec;
  // The most states one search may create (about 250 bytes each plus the covered set's bits
  // and the boundary). Past it the exact search with a penalty falls back to the covered-set
  // keying; past it again the search throws.
  size_t max_states = 2'000'000;
};

struct SearchStats {
  size_t candidates = 0;
  size_t states_explored = 0;  // popped and expanded
  size_t states_reached = 0;   // distinct states created
  size_t peak_state_bytes = 0;  // the states' memory, estimated, at the largest
  bool exact = true;            // false: the state budget was reached and the approximation answered
  size_t exact_states_reached = 0;  // when not exact: the states the abandoned exact search had created
  double seconds = 0;
  std::string ToString() const;
};

struct SearchResult {
  std::vector<CandidatePartition> chosen;  // in path order (increasing first inside node)
  Cost total = Cost::Zero();
  SearchStats stats;
};

// `spec_names` only serve error messages (the specs that were tried). Throws Error naming
// the node and the specs when some node has no candidate, or none that can be placed.
SearchResult SearchOptimalPlacement(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                                    CostEstimator& estimator, const std::vector<std::string>& spec_names,
                                    const SearchOptions& options = {});

// The total SearchOptimalPlacement gives the placement `chosen` (disjoint candidates covering
// every node but the parameters), with the same options: its candidates' costs plus the
// penalties for handing values between them. E.g. a placement after coalescing, whose merged
// partitions the search never priced.
Cost PlacementCost(const DataflowGraph& graph, const std::vector<CandidatePartition>& chosen, CostEstimator& estimator,
                   const SearchOptions& options = {});

// The cheapest ways to cover one region of a graph exactly, with candidates inside it (no
// transition penalty): the same Dijkstra with every node outside the region covered from
// the start. Built once over a candidate list, queried per region.
class CoverSearch {
 public:
  // Keeps references to its arguments.
  CoverSearch(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates, CostEstimator& estimator);
  // Only candidates `allowed` accepts (by position in the list) are used; nullopt when no
  // combination of them covers the region. `surcharge`, when set, adds seconds to a
  // candidate's cost (by position) for this query only; the total includes it.
  std::optional<SearchResult> Cheapest(const IndexSet& region, const std::function<bool(size_t)>& allowed,
                                       const std::function<double(size_t)>& surcharge = {}) const;

 private:
  const DataflowGraph& graph_;
  const std::vector<CandidatePartition>& candidates_;
  CostEstimator& estimator_;
  std::vector<std::vector<size_t>> starting_at_;
};

}  // namespace collage
