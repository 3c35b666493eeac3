// Phases 2 and 3: index the candidates by their first inside node, then find the cheapest
// placement by Dijkstra over covered node sets (DESIGN §8, RFC "Phase 3").
//
// A state is the set of covered nodes (parameters are covered from the start) plus, when a
// transition penalty is given, the spec of the last candidate on the path. From a state
// only candidates that contain the first uncovered node and are disjoint from the covered
// set are tried, so each placement is reached in one canonical order. Edge cost = the
// candidate's cost + penalty(previous spec, candidate spec). Candidates whose cost is
// Invalid or Unknown are skipped. The first complete state popped is optimal for this
// additive cost model.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/cost_estimator.h"
#include "collage/partition_rule.h"

namespace collage {

struct SearchOptions {
  // Seconds added when candidate `to` follows a candidate of spec `from` on the path ("" as
  // `from` for the first candidate). Unset: no penalty.
  std::function<double(const std::string& from, const CandidatePartition& to, const DataflowGraph& graph)>
      transition_penalty;
};

struct SearchStats {
  size_t candidates = 0;
  size_t states_explored = 0;  // popped and expanded
  size_t states_reached = 0;   // distinct states created
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
