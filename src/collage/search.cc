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

// With a transition penalty: a covered node next to an uncovered one, as far as the penalties
// still to come depend on it.
struct BoundaryEntry {
  size_t node;
  size_t spec;       // the spec whose partition computed the node's value
  bool host;         // the node is in a host partition (which is never charged)
  size_t partition;  // while the node has an uncovered producer: its partition's first inside node; else kNone
  bool operator==(const BoundaryEntry& other) const = default;
};

struct State {
  IndexSet covered;
  std::vector<BoundaryEntry> boundary;  // by node; empty without a transition penalty
  Cost cost;
  size_t predecessor;
  size_t candidate;
  bool settled = false;
};

struct StateKey {
  const IndexSet* covered;
  const std::vector<BoundaryEntry>* boundary;
  bool operator==(const StateKey& other) const { return *boundary == *other.boundary && *covered == *other.covered; }
};

struct StateKeyHash {
  size_t operator()(const StateKey& key) const {
    size_t hash = key.covered->Hash();
    for (const BoundaryEntry& entry : *key.boundary) {
      hash = HashCombine(hash, HashCombine(HashCombine(entry.node, entry.spec), entry.partition));
    }
    return hash;
  }
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
  const SearchOptions& options;  // its transition penalty, when set, puts the boundary in the key
  const std::map<std::string, size_t>* spec_index = nullptr;
  std::vector<std::string> spec_names;  // by spec index
  std::function<bool(size_t)> allowed;      // unset: every candidate
  std::function<double(size_t)> surcharge;  // unset: none
};

const BoundaryEntry* FindEntry(const std::vector<BoundaryEntry>& boundary, size_t node) {
  auto found = std::lower_bound(boundary.begin(), boundary.end(), node,
                                [](const BoundaryEntry& entry, size_t index) { return entry.node < index; });
  return found != boundary.end() && found->node == node ? &*found : nullptr;
}

// The transition penalty of adding `candidate` to state `from` (whose covered set grows to
// `covered`), and the boundary of the new state. An edge between the candidate and a covered
// node is charged now; one to a node still uncovered is charged when that node is placed.
double StepBoundary(const DijkstraInput& input, const State& from, const IndexSet& covered,
                    const CandidatePartition& candidate, std::vector<BoundaryEntry>& boundary) {
  const DataflowGraph& graph = input.graph;
  const size_t spec = input.spec_index->at(candidate.spec_name());
  const bool host = candidate.spec_name() == input.options.host_spec;
  const std::vector<size_t> inside = candidate.sub_graph().inside().ToVector();

  // The new nodes' entries, in node order; a host node passes on its one producer's spec.
  std::vector<BoundaryEntry> added;
  for (size_t node : inside) {
    size_t value_spec = spec;
    if (host) {
      const std::vector<size_t>& producers = graph.node(node).inputs;
      const BoundaryEntry* producer = nullptr;
      if (producers.size() == 1) {
        producer = FindEntry(added, producers[0]);
        if (producer == nullptr) producer = FindEntry(from.boundary, producers[0]);
      }
      value_spec = producer != nullptr ? producer->spec : kNone;
    }
    added.push_back(BoundaryEntry{node, value_spec, host, host ? kNone : candidate.sub_graph().first_inside()});
  }

  double penalty = 0;
  if (!host) {
    const auto& charge = input.options.transition_penalty;
    for (size_t value : candidate.sub_graph().input().ToVector()) {
      const BoundaryEntry* producer = FindEntry(from.boundary, value);
      if (producer != nullptr && producer->spec != spec) {
        penalty += charge(input.spec_names[producer->spec], candidate.spec_name(), value, graph);
      }
    }
    for (size_t value : inside) {
      std::vector<size_t> charged_partitions;
      for (size_t consumer : graph.node(value).outputs) {
        if (candidate.sub_graph().inside()[consumer] || !from.covered[consumer]) continue;
        const BoundaryEntry* entry = FindEntry(from.boundary, consumer);
        if (entry == nullptr || entry->host || entry->spec == spec) continue;
        if (std::find(charged_partitions.begin(), charged_partitions.end(), entry->partition) !=
            charged_partitions.end()) {
          continue;
        }
        charged_partitions.push_back(entry->partition);
        penalty += charge(candidate.spec_name(), input.spec_names[entry->spec], value, graph);
      }
    }
  }

  // Keep the covered nodes that still touch an uncovered one.
  boundary.clear();
  auto keep = [&](BoundaryEntry entry) {
    if (entry.spec == kNone) return;
    const DataflowNode& node = graph.node(entry.node);
    const bool waits = std::any_of(node.inputs.begin(), node.inputs.end(), [&](size_t n) { return !covered[n]; });
    const bool feeds = std::any_of(node.outputs.begin(), node.outputs.end(), [&](size_t n) { return !covered[n]; });
    if (!waits && !feeds) return;
    if (!waits) entry.partition = kNone;
    boundary.push_back(entry);
  };
  for (const BoundaryEntry& entry : from.boundary) keep(entry);
  for (const BoundaryEntry& entry : added) keep(entry);
  std::sort(boundary.begin(), boundary.end(),
            [](const BoundaryEntry& a, const BoundaryEntry& b) { return a.node < b.node; });
  return penalty;
}

// Phase 3 from `initial`. Fills result.chosen, total and the state counts; false when no
// complete state is reachable (`farthest_uncovered` then names the node it got stuck at).
bool RunDijkstra(const DijkstraInput& input, const IndexSet& initial, SearchResult& result,
                 size_t& farthest_uncovered) {
  const bool penalized = static_cast<bool>(input.options.transition_penalty);
  std::deque<State> states;  // stable addresses: the map's keys point into it
  std::unordered_map<StateKey, size_t, StateKeyHash> state_of;
  using QueueEntry = std::tuple<double, size_t, size_t>;  // cost, insertion order, state
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue;
  size_t insertions = 0;
  states.push_back(State{initial, {}, Cost::Zero(), kNone, kNone});
  state_of.emplace(StateKey{&states.back().covered, &states.back().boundary}, 0);
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
      IndexSet covered = states[state_index].covered | candidate.sub_graph().inside();
      std::vector<BoundaryEntry> boundary;
      if (penalized) {
        edge += Cost::Seconds(StepBoundary(input, states[state_index], covered, candidate, boundary));
      }
      const Cost cost = states[state_index].cost + edge;
      auto found = state_of.find(StateKey{&covered, &boundary});
      size_t successor;
      if (found == state_of.end()) {
        successor = states.size();
        states.push_back(State{std::move(covered), std::move(boundary), cost, state_index, c});
        state_of.emplace(StateKey{&states.back().covered, &states.back().boundary}, successor);
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

  std::vector<std::string> names_by_index(spec_index.size());
  for (const auto& [name, index] : spec_index) names_by_index[index] = name;
  DijkstraInput input{graph, candidates, starting_at, estimator, options, &spec_index, std::move(names_by_index),
                      nullptr, nullptr};
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
  const SearchOptions no_penalty;
  DijkstraInput input{graph_, candidates_, starting_at_, estimator_, no_penalty, nullptr, {}, allowed, surcharge};
  size_t farthest_uncovered = 0;
  const bool complete = RunDijkstra(input, initial, result, farthest_uncovered);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (!complete) return std::nullopt;
  return result;
}

}  // namespace collage
