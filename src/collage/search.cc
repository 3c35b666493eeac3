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

// Candidates by first inside node (phase 2).
std::vector<std::vector<size_t>> IndexByFirstInside(const DataflowGraph& graph,
                                                    const std::vector<CandidatePartition>& candidates) {
  std::vector<std::vector<size_t>> starting_at(graph.size());
  for (size_t c = 0; c < candidates.size(); ++c) {
    const SubGraph& sub_graph = candidates[c].sub_graph();
    Check(sub_graph.inside().size() == graph.size(), "Collage search: a candidate belongs to another graph");
    if (!sub_graph.inside().IsEmpty()) starting_at[sub_graph.first_inside()].push_back(c);
  }
  return starting_at;
}

struct DijkstraInput {
  const DataflowGraph& graph;
  const std::vector<CandidatePartition>& candidates;
  const std::vector<std::vector<size_t>>& starting_at;
  CostEstimator& estimator;
  // Seconds for following a candidate of one spec with another candidate; unset: no penalty, no spec in the key.
  std::function<double(const std::string& from, const CandidatePartition& to, const DataflowGraph& graph)>
      transition_penalty;
  const std::map<std::string, size_t>* spec_index = nullptr;
  std::function<bool(size_t)> allowed;      // unset: every candidate
  std::function<double(size_t)> surcharge;  // unset: none
};

// Phase 3 from `initial`. Fills result.chosen, total and the state counts; false when no
// complete state is reachable (`farthest_uncovered` then names the node it got stuck at).
bool RunDijkstra(const DijkstraInput& input, const IndexSet& initial, SearchResult& result,
                 size_t& farthest_uncovered) {
  const bool penalized = static_cast<bool>(input.transition_penalty);
  std::deque<State> states;  // stable addresses: the map's keys point into it
  std::unordered_map<StateKey, size_t, StateKeyHash> state_of;
  using QueueEntry = std::tuple<double, size_t, size_t>;  // cost, insertion order, state
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue;
  size_t insertions = 0;
  states.push_back(State{initial, kNone, Cost::Zero(), kNone, kNone});
  state_of.emplace(StateKey{&states.back().covered, kNone}, 0);
  queue.emplace(0.0, insertions++, 0);
  farthest_uncovered = initial.FirstOutside().value_or(input.graph.size());
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
    for (size_t c : input.starting_at[*next]) {
      const CandidatePartition& candidate = input.candidates[c];
      if (input.allowed && !input.allowed(c)) continue;
      if (!candidate.sub_graph().inside().AreDisjoint(states[state_index].covered)) continue;
      Cost edge = candidate.EstimatedCost(input.graph, input.estimator);
      if (!edge.IsKnown()) continue;
      if (input.surcharge) edge += Cost::Seconds(input.surcharge(c));
      size_t last_spec = kNone;
      if (penalized) {
        last_spec = input.spec_index->at(candidate.spec_name());
        const size_t previous = states[state_index].last_spec;
        const std::string& from =
            previous == kNone ? std::string() : input.candidates[states[state_index].candidate].spec_name();
        edge += Cost::Seconds(input.transition_penalty(from, candidate, input.graph));
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
  if (!final_state) return false;
  result.total = states[*final_state].cost;
  for (size_t s = *final_state; states[s].predecessor != kNone; s = states[s].predecessor) {
    result.chosen.push_back(input.candidates[states[s].candidate]);
  }
  std::reverse(result.chosen.begin(), result.chosen.end());
  return true;
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

  IndexSet initial(graph.size());
  for (const DataflowNode& node : graph.nodes()) {
    if (node.expr->kind() == ExprKind::kVar) initial.Add(node.index);
  }
  const std::vector<std::vector<size_t>> starting_at = IndexByFirstInside(graph, candidates);
  IndexSet coverable = initial;
  std::map<std::string, size_t> spec_index;
  for (const CandidatePartition& candidate : candidates) {
    coverable |= candidate.sub_graph().inside();
    spec_index.emplace(candidate.spec_name(), spec_index.size());
  }
  if (std::optional<size_t> missing = coverable.FirstOutside()) {
    throw Error("Collage: no partition spec accepts " + DescribeNode(graph, *missing) +
                "; specs tried: " + JoinNames(spec_names));
  }

  DijkstraInput input{graph, candidates, starting_at, estimator, options.transition_penalty, &spec_index, {}, {}};
  size_t farthest_uncovered = 0;
  const bool complete = RunDijkstra(input, initial, result, farthest_uncovered);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (!complete) {
    throw Error("Collage: no complete placement; no valid candidate with a known cost covers " +
                DescribeNode(graph, farthest_uncovered) + " after the nodes before it; specs tried: " +
                JoinNames(spec_names));
  }
  return result;
}

CoverSearch::CoverSearch(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                         CostEstimator& estimator)
    : graph_(graph), candidates_(candidates), estimator_(estimator), starting_at_(IndexByFirstInside(graph, candidates)) {}

std::optional<SearchResult> CoverSearch::Cheapest(const IndexSet& region, const std::function<bool(size_t)>& allowed,
                                                  const std::function<double(size_t)>& surcharge) const {
  const auto start_time = std::chrono::steady_clock::now();
  IndexSet initial(graph_.size());
  for (size_t node = 0; node < graph_.size(); ++node) {
    if (!region[node]) initial.Add(node);
  }
  SearchResult result;
  result.stats.candidates = candidates_.size();
  DijkstraInput input{graph_, candidates_, starting_at_, estimator_, {}, nullptr, allowed, surcharge};
  size_t farthest_uncovered = 0;
  const bool complete = RunDijkstra(input, initial, result, farthest_uncovered);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (!complete) return std::nullopt;
  return result;
}

}  // namespace collage
