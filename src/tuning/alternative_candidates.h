// The measurement jobs of one tuning, grouped by the operators they cover. Jobs over the same
// inside set (on other backends, or in other boundary formats) are alternatives: the search can
// put any one of them where another is. This lets a tuning skip precision it does not need:
//
//   TimingOrder         times each group's likely fastest job, the one whose backend states the
//                       highest speed, before its alternatives;
//   DominanceThreshold  then gives each later job the run time above which it cannot be chosen:
//                       kDominanceFactor times the fastest alternative measured so far, and at
//                       least kMinimumDominatedSeconds. A slower alternative could only win by
//                       saving boundary conversions, which cost about what reading and writing
//                       the boundary tensors costs, far less than the difference.
//
// Job indices are the caller's; a job may sit in several groups (one function standing for
// equal operators at several places of the graph, e.g. repeated blocks).
#pragma once

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "collage/cost.h"
#include "collage/index_set.h"

namespace collage {

class AlternativeCandidates {
 public:
  static constexpr double kDominanceFactor = 4;
  static constexpr double kMinimumDominatedSeconds = 0.01;

  // Job `job` covers `operators`; its backend states `stated_speed` (higher is faster).
  void AddJob(const IndexSet& operators, size_t job, double stated_speed);
  // An alternative for `operators` whose cost is already known (an earlier search's memo).
  void AddKnownCost(const IndexSet& operators, Cost cost);

  // Jobs 0 .. jobs-1, each group's jobs by decreasing stated speed, and every group's first
  // before any group's second; a job in no group keeps its place among the first.
  std::vector<size_t> TimingOrder(size_t jobs) const;

  // The run time above which `job` is dominated, given the costs known so far (costs[i] for job
  // i; Unknown while it is not timed); 0 when no alternative has a known cost.
  double DominanceThreshold(size_t job, const std::vector<Cost>& costs) const;

 private:
  struct Group {
    std::vector<size_t> jobs;
    Cost best_known = Cost::Invalid();
  };
  // The index in groups_ of the group over `operators`, added when there is none.
  size_t GroupOf(const IndexSet& operators);

  std::unordered_map<IndexSet, size_t, IndexSetHash> group_of_operators_;
  std::vector<Group> groups_;
  std::vector<std::vector<size_t>> groups_of_job_;
  std::vector<double> stated_speed_;
};

}  // namespace collage
