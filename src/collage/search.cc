#include "collage/search.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <queue>
#include <sstream>
#include <unordered_map>

#include "support/hash.h"

namespace collage {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

struct State {
  IndexSet covered;
  size_t last_spec;  // kNone at the start, or when no penalty is given
  Cost cost;
  size_t predecessor;
  size_t candidate;
  bool settled = false;
};

struct StateKey {
  const IndexSet* covered;
  size_t last_spec;
  bool operator==(const StateKey& other) const {
    return last_spec == other.last_spec && *covered == *other.covered;
  }
};

struct StateKeyHash {
  size_t operator()(const StateKey& key) const { return HashCombine(key.covered->Hash(), key.last_spec); }
};

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "(none)" : text;
}

std::string DescribeNode(const DataflowGraph& graph, size_t index) {
  return "node " + std::to_string(index) + " (" + DescribeExpr(*graph.node(index).expr) + ")";
}

}  // namespace

std::string SearchStats::ToString() const {
  std::ostringstream text;
  text << "candidates=" << candidates << " states_explored=" << states_explored << " states_reached=" << states_reached
       << " seconds=" << seconds;
  return text.str();
}

SearchResult SearchOptimalPlacement(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                                    CostEstimator& estimator, const std::vector<std::string>& spec_names,
                                    const SearchOptions& options) {
  const auto start_time = std::chrono::steady_clock::now();
  SearchResult result;
  result.stats.candidates = candidates.size();

  // Phase 2: candidates by first inside node; nodes no candidate covers are errors.
  IndexSet initial(graph.size());
  for (const DataflowNode& node : graph.nodes()) {
    if (node.expr->kind() == ExprKind::kVar) initial.Add(node.index);
  }
  std::vector<std::vector<size_t>> starting_at(graph.size());
  IndexSet coverable = initial;
  std::map<std::string, size_t> spec_index;
  for (size_t c = 0; c < candidates.size(); ++c) {
    const SubGraph& sub_graph = candidates[c].sub_graph();
    Check(sub_graph.inside().size() == graph.size(), "Collage search: a candidate belongs to another graph");
    if (sub_graph.inside().IsEmpty()) continue;
    starting_at[sub_graph.first_inside()].push_back(c);
    coverable |= sub_graph.inside();
    spec_index.emplace(candidates[c].spec_name(), spec_index.size());
  }
  if (std::optional<size_t> missing = coverable.FirstOutside()) {
    throw Error("Collage: no partition spec accepts " + DescribeNode(graph, *missing) +
                "; specs tried: " + JoinNames(spec_names));
  }

  // Phase 3: Dijkstra.
  const bool penalized = static_cast<bool>(options.transition_penalty);
  std::deque<State> states;  // stable addresses: the map's keys point into it
  std::unordered_map<StateKey, size_t, StateKeyHash> state_of;
  using QueueEntry = std::tuple<double, size_t, size_t>;  // cost, insertion order, state
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue;
  size_t insertions = 0;
  states.push_back(State{initial, kNone, Cost::Zero(), kNone, kNone});
  state_of.emplace(StateKey{&states.back().covered, kNone}, 0);
  queue.emplace(0.0, insertions++, 0);
  size_t farthest_uncovered = initial.FirstOutside().value_or(graph.size());
  std::optional<size_t> final_state;

  while (!queue.empty()) {
    const auto [cost_seconds, order, state_index] = queue.top();
    queue.pop();
    if (states[state_index].settled) continue;
    states[state_index].settled = true;
    ++result.stats.states_explored;
    const std::optional<size_t> next = states[state_index].covered.FirstOutside();
    if (!next) {
      final_state = state_index;
      break;
    }
    farthest_uncovered = std::max(farthest_uncovered, *next);
    for (size_t c : starting_at[*next]) {
      const CandidatePartition& candidate = candidates[c];
      if (!candidate.sub_graph().inside().AreDisjoint(states[state_index].covered)) continue;
      Cost edge = candidate.EstimatedCost(graph, estimator);
      if (!edge.IsKnown()) continue;
      size_t last_spec = kNone;
      if (penalized) {
        last_spec = spec_index.at(candidate.spec_name());
        const size_t previous = states[state_index].last_spec;
        const std::string& from = previous == kNone ? std::string() : candidates[states[state_index].candidate].spec_name();
        edge += Cost::Seconds(options.transition_penalty(from, candidate.spec_name()));
      }
      const Cost cost = states[state_index].cost + edge;
      IndexSet covered = states[state_index].covered | candidate.sub_graph().inside();
      auto found = state_of.find(StateKey{&covered, last_spec});
      size_t successor;
      if (found == state_of.end()) {
        successor = states.size();
        states.push_back(State{std::move(covered), last_spec, cost, state_index, c});
        state_of.emplace(StateKey{&states.back().covered, last_spec}, successor);
      } else {
        successor = found->second;
        if (states[successor].settled || !(cost < states[successor].cost)) continue;
        states[successor].cost = cost;
        states[successor].predecessor = state_index;
        states[successor].candidate = c;
      }
      queue.emplace(cost.seconds(), insertions++, successor);
    }
  }
  result.stats.states_reached = states.size();
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (!final_state) {
    throw Error("Collage: no complete placement; no valid candidate with a known cost covers " +
                DescribeNode(graph, farthest_uncovered) + " after the nodes before it; specs tried: " +
                JoinNames(spec_names));
  }
  result.total = states[*final_state].cost;
  for (size_t s = *final_state; states[s].predecessor != kNone; s = states[s].predecessor) {
    result.chosen.push_back(candidates[states[s].candidate]);
  }
  std::reverse(result.chosen.begin(), result.chosen.end());
  return result;
}

}  // namespace collage
