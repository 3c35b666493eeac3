// Bounds that let the placement search skip states without losing the optimum.
//
// CoverLowerBound: an admissible and consistent A* heuristic. Every node must end up inside
// exactly one candidate, so spreading each candidate's cost evenly over its inside nodes and
// taking, per node, the cheapest share over the candidates that could cover it gives a lower
// bound on the cost of covering any set of nodes. Covering a candidate's nodes lowers the
// bound by at most the candidate's cost, so the bound is consistent.
//
// FuturePenaltyBound: the most transition penalty a state's boundary can still add. Two
// states with the same covered set admit the same completions; their totals for a completion
// differ by their costs so far and by the penalties charged on dataflow edges whose producer's
// spec one of them fixed: edges crossing the covered set, and edges leaving the single-input
// nodes (host projections pass their producer's spec on) fed across it. A state whose cost so
// far exceeds another's by more than the other's bound can never do better than it.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/cost_estimator.h"
#include "collage/dataflow_graph.h"

namespace collage {

class CoverLowerBound {
 public:
  CoverLowerBound() = default;
  // `usable`: (position in `candidates`, cost) of each candidate the search may use; a node none
  // of them covers adds nothing.
  CoverLowerBound(const std::vector<CandidatePartition>& candidates, const std::vector<std::pair<size_t, double>>& usable);

  // The bound for covering everything outside `covered`.
  double Remaining(const IndexSet& covered) const;
  // How much the bound drops when `nodes` become covered.
  double Share(const IndexSet& nodes) const;

 private:
  // Per node from first_node_ on, to the last node a usable candidate covers; 0 where none does.
  size_t first_node_ = 0;
  std::vector<double> cheapest_share_;
};

class FuturePenaltyBound {
 public:
  FuturePenaltyBound() = default;
  // `most_per_value(v)`: the largest penalty that handing node v's value between two
  // partitions may cost, over every pair of specs.
  FuturePenaltyBound(const DataflowGraph& graph, const std::function<double(size_t)>& most_per_value);

  // The bound for a state covering `covered`; `boundary_nodes` are its covered nodes that
  // touch an uncovered one (every other covered node contributes nothing).
  double Bound(const IndexSet& covered, const std::vector<size_t>& boundary_nodes) const;

 private:
  const DataflowGraph* graph_ = nullptr;
  std::vector<double> most_per_value_;
  std::vector<double> passed_on_;  // per single-input node: what its value and its heirs' may cost
};

}  // namespace collage
