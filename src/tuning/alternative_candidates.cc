#include "tuning/alternative_candidates.h"

#include <algorithm>

namespace collage {

size_t AlternativeCandidates::GroupOf(const IndexSet& operators) {
  const auto [entry, added] = group_of_operators_.emplace(operators, groups_.size());
  if (added) groups_.emplace_back();
  return entry->second;
}

void AlternativeCandidates::AddJob(const IndexSet& operators, size_t job, double stated_speed) {
  const size_t group_index = GroupOf(operators);
  if (job >= groups_of_job_.size()) {
    groups_of_job_.resize(job + 1);
    stated_speed_.resize(job + 1, 0);
  }
  stated_speed_[job] = stated_speed;
  std::vector<size_t>& groups = groups_of_job_[job];
  if (std::find(groups.begin(), groups.end(), group_index) != groups.end()) return;
  groups.push_back(group_index);
  groups_[group_index].jobs.push_back(job);
}

void AlternativeCandidates::AddKnownCost(const IndexSet& operators, Cost cost) {
  Group& group = groups_[GroupOf(operators)];
  if (cost.IsKnown() && cost < group.best_known) group.best_known = cost;
}

std::vector<size_t> AlternativeCandidates::TimingOrder(size_t jobs) const {
  std::vector<size_t> rank(jobs, 0);
  std::vector<bool> ranked(jobs, false);
  for (const Group& group : groups_) {
    std::vector<size_t> by_speed = group.jobs;
    std::stable_sort(by_speed.begin(), by_speed.end(),
                     [&](size_t a, size_t b) { return stated_speed_[a] > stated_speed_[b]; });
    for (size_t position = 0; position < by_speed.size(); ++position) {
      const size_t job = by_speed[position];
      if (job >= jobs) continue;
      rank[job] = ranked[job] ? std::min(rank[job], position) : position;
      ranked[job] = true;
    }
  }
  std::vector<size_t> order(jobs);
  for (size_t job = 0; job < jobs; ++job) order[job] = job;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank[a] < rank[b]; });
  return order;
}

double AlternativeCandidates::DominanceThreshold(size_t job, const std::vector<Cost>& costs) const {
  if (job >= groups_of_job_.size()) return 0;
  Cost best = Cost::Invalid();
  for (size_t group_index : groups_of_job_[job]) {
    const Group& group = groups_[group_index];
    best = std::min(best, group.best_known);
    for (size_t alternative : group.jobs) {
      if (alternative != job && alternative < costs.size() && costs[alternative].IsKnown()) {
        best = std::min(best, costs[alternative]);
      }
    }
  }
  if (!best.IsKnown()) return 0;
  return std::max(kDominanceFactor * best.seconds(), kMinimumDominatedSeconds);
}

}  // namespace collage
