#include "collage/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <queue>
#include <sstream>
#include <unordered_map>

#include "collage/search_bounds.h"
#include "support/error.h"
#include "support/hash.h"

namespace collage {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

const PartitionSide kModelSide{"", PartitionLayouts{}};

// Whether node `value` is (a field of) the body's result.
bool IsModelResult(const DataflowGraph& graph, size_t value) {
  const DataflowNode& node = graph.node(value);
  if (node.external && node.expr->kind() != ExprKind::kTuple) return true;
  return std::any_of(node.outputs.begin(), node.outputs.end(), [&](size_t consumer) {
    return graph.node(consumer).external && graph.node(consumer).expr->kind() == ExprKind::kTuple;
  });
}

// With a transition penalty: a covered node next to an uncovered one, as far as the penalties
// still to come depend on it.
struct BoundaryEntry {
  size_t node;
  size_t side;       // the side (PartitionSide, by index) whose partition computed the node's value
  bool host;         // the node is in a host partition (which is never charged)
  size_t partition;  // while the node has an uncovered producer: its partition's first inside node; else kNone
  // While `partition` is set: the specs (one bit per spec index) that partition has been
  // charged a hand-over from.
  uint64_t handed_over_from = 0;
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

// A state's identity, pointing into the state; how much of it counts is the search's StateKeying.
struct StateKey {
  const IndexSet* covered;
  const std::vector<BoundaryEntry>* boundary;
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
  const std::vector<size_t>* side_of_candidate = nullptr;  // index into `sides`, per candidate
  std::vector<PartitionSide> sides;
  std::vector<size_t> spec_of_side;  // per side: its spec's index (below 64) among the sides' specs
  std::function<bool(size_t)> allowed;      // unset: every candidate
  std::function<double(size_t)> surcharge;  // unset: none
  // Nodes from this index on lie outside the search's scope: they count as covered and no
  // candidate holding one is used. A region's cover search stops at the region's last node, so
  // its covered sets span the region, not the rest of the graph.
  size_t scope_end = static_cast<size_t>(-1);
};

// The first node of the scope from `from` on that `covered` lacks, if any.
std::optional<size_t> FirstUncovered(const DijkstraInput& input, const IndexSet& covered, size_t from = 0) {
  const std::optional<size_t> node = covered.FirstOutside(from);
  if (node && *node >= input.scope_end) return std::nullopt;
  return node;
}

const BoundaryEntry* FindEntry(const std::vector<BoundaryEntry>& boundary, size_t node) {
  auto found = std::lower_bound(boundary.begin(), boundary.end(), node,
                                [](const BoundaryEntry& entry, size_t index) { return entry.node < index; });
  return found != boundary.end() && found->node == node ? &*found : nullptr;
}

// The transition penalty of adding `candidate` to state `from` (whose covered set grows to
// `covered`), and the boundary of the new state. An edge between the candidate and a covered
// node is charged now; one to a node still uncovered is charged when that node is placed.
double StepBoundary(const DijkstraInput& input, const State& from, const IndexSet& covered,
                    size_t candidate_index, std::vector<BoundaryEntry>& boundary) {
  const DataflowGraph& graph = input.graph;
  const CandidatePartition& candidate = input.candidates[candidate_index];
  const size_t side = input.side_of_candidate->at(candidate_index);
  const bool host = candidate.spec_name() == input.options.host_spec;
  const std::vector<size_t> inside = candidate.sub_graph().inside().ToVector();

  // The new nodes' entries, in node order; a host node passes on its one producer's side.
  std::vector<BoundaryEntry> added;
  for (size_t node : inside) {
    size_t value_side = side;
    if (host) {
      const std::vector<size_t>& producers = graph.node(node).inputs;
      const BoundaryEntry* producer = nullptr;
      if (producers.size() == 1) {
        producer = FindEntry(added, producers[0]);
        if (producer == nullptr) producer = FindEntry(from.boundary, producers[0]);
      }
      value_side = producer != nullptr ? producer->side : kNone;
    }
    added.push_back(BoundaryEntry{node, value_side, host, host ? kNone : candidate.sub_graph().first_inside()});
  }

  double penalty = 0;
  uint64_t handed_over_from = 0;                                // this candidate's
  std::vector<std::pair<size_t, uint64_t>> consumers_handed_to;  // covered consumers' partitions'
  if (!host) {
    const auto& charge = input.options.transition_penalty;
    const auto& hand_over = input.options.hand_over_penalty;
    const PartitionSide& this_side = input.sides[side];
    // One bit per spec, with a hand-over penalty only.
    auto spec_bit = [&](size_t of_side) { return hand_over ? uint64_t{1} << input.spec_of_side[of_side] : 0; };
    const uint64_t this_spec = spec_bit(side);
    for (size_t value : candidate.sub_graph().input().ToVector()) {
      if (graph.node(value).expr->kind() == ExprKind::kVar) {
        penalty += charge(kModelSide, this_side, value, graph);
        continue;
      }
      const BoundaryEntry* producer = FindEntry(from.boundary, value);
      if (producer == nullptr) continue;
      if (!input.sides[producer->side].HandsOverFreelyTo(this_side)) {
        penalty += charge(input.sides[producer->side], this_side, value, graph);
      }
      const uint64_t producer_spec = spec_bit(producer->side);
      if (hand_over && producer_spec != this_spec && (handed_over_from & producer_spec) == 0) {
        handed_over_from |= producer_spec;
        penalty += hand_over(input.sides[producer->side], this_side);
      }
    }
    for (size_t value : inside) {
      if (IsModelResult(graph, value)) penalty += charge(this_side, kModelSide, value, graph);
      std::vector<size_t> charged_partitions;
      for (size_t consumer : graph.node(value).outputs) {
        if (candidate.sub_graph().inside()[consumer] || !from.covered[consumer]) continue;
        const BoundaryEntry* entry = FindEntry(from.boundary, consumer);
        if (entry == nullptr || entry->host) continue;
        const uint64_t consumer_spec = spec_bit(entry->side);
        if (hand_over && consumer_spec != this_spec) {
          auto charged = std::find_if(consumers_handed_to.begin(), consumers_handed_to.end(),
                                      [&](const auto& handed) { return handed.first == entry->partition; });
          if (charged == consumers_handed_to.end()) {
            consumers_handed_to.emplace_back(entry->partition, entry->handed_over_from);
            charged = consumers_handed_to.end() - 1;
          }
          if ((charged->second & this_spec) == 0) {
            charged->second |= this_spec;
            penalty += hand_over(this_side, input.sides[entry->side]);
          }
        }
        if (this_side.HandsOverFreelyTo(input.sides[entry->side])) continue;
        if (std::find(charged_partitions.begin(), charged_partitions.end(), entry->partition) !=
            charged_partitions.end()) {
          continue;
        }
        charged_partitions.push_back(entry->partition);
        penalty += charge(this_side, input.sides[entry->side], value, graph);
      }
    }
  }

  // Keep the covered nodes that still touch an uncovered one.
  boundary.clear();
  auto keep = [&](BoundaryEntry entry) {
    if (entry.side == kNone) return;
    const DataflowNode& node = graph.node(entry.node);
    const bool waits = std::any_of(node.inputs.begin(), node.inputs.end(), [&](size_t n) { return !covered[n]; });
    const bool feeds = std::any_of(node.outputs.begin(), node.outputs.end(), [&](size_t n) { return !covered[n]; });
    if (!waits && !feeds) return;
    if (waits) {
      for (const auto& [partition, specs] : consumers_handed_to) {
        if (entry.partition == partition) entry.handed_over_from = specs;
      }
    } else {
      entry.partition = kNone;
      entry.handed_over_from = 0;
    }
    boundary.push_back(entry);
  };
  for (const BoundaryEntry& entry : from.boundary) keep(entry);
  for (BoundaryEntry entry : added) {
    if (!entry.host) entry.handed_over_from = handed_over_from;
    keep(entry);
  }
  std::sort(boundary.begin(), boundary.end(),
            [](const BoundaryEntry& a, const BoundaryEntry& b) { return a.node < b.node; });
  return penalty;
}

// How states are told apart.
enum class StateKeying {
  kCoveredAndBoundary,  // exact with a transition penalty
  kCoveredOnly,         // the approximation: the first cheapest path to a covered set keeps its boundary
};

struct StateKeyEqual {
  StateKeying keying;
  bool operator()(const StateKey& a, const StateKey& b) const {
    return *a.covered == *b.covered && (keying == StateKeying::kCoveredOnly || *a.boundary == *b.boundary);
  }
};

struct StateKeyHash {
  StateKeying keying;
  size_t operator()(const StateKey& key) const {
    size_t hash = key.covered->Hash();
    if (keying == StateKeying::kCoveredOnly) return hash;
    for (const BoundaryEntry& entry : *key.boundary) {
      hash = HashCombine(hash, HashCombine(HashCombine(entry.node, entry.side), entry.partition));
      hash = HashCombine(hash, static_cast<size_t>(entry.handed_over_from));
    }
    return hash;
  }
};

size_t StateBytes(const State& state) {
  constexpr size_t kMapEntryBytes = 64;  // a hash node and its bucket, about
  return sizeof(State) + state.covered.HeapBytes() + state.boundary.capacity() * sizeof(BoundaryEntry) +
         kMapEntryBytes;
}

// The costs the search charges from `initial`. A candidate is usable when it starts at an
// uncovered node of the scope, is disjoint from `initial`, is allowed and has a known cost. Sized
// by the scope's uncovered span, not by the graph or by every candidate: a region's cover search
// builds one per region.
struct UsableCosts {
  size_t begin = 0;                 // the first uncovered node of the scope
  std::vector<size_t> offset;       // per node from `begin` on, and one past the last
  std::vector<double> cost;         // the cost of starting_at[node][k] at offset[node - begin] + k; NaN: unusable
  std::vector<std::pair<size_t, double>> usable;  // (candidate, cost) of each usable candidate

  // The cost of the k-th candidate starting at `node` (NaN when unusable); `node` is uncovered.
  double At(size_t node, size_t k) const { return cost[offset[node - begin] + k]; }
};

UsableCosts CollectUsableCosts(const DijkstraInput& input, const IndexSet& initial) {
  UsableCosts costs;
  const size_t end = std::min(input.scope_end, input.graph.size());
  costs.begin = FirstUncovered(input, initial).value_or(end);
  costs.offset.reserve(end - costs.begin + 1);
  for (size_t node = costs.begin; node < end; ++node) {
    costs.offset.push_back(costs.cost.size());
    for (size_t c : input.starting_at[node]) {
      double seconds = std::numeric_limits<double>::quiet_NaN();
      const SubGraph& sub_graph = input.candidates[c].sub_graph();
      if (!initial[node] && (!input.allowed || input.allowed(c)) && sub_graph.last_inside() < input.scope_end &&
          !sub_graph.inside().Intersects(initial)) {
        const Cost estimated = input.candidates[c].EstimatedCost(input.graph, input.estimator);
        if (estimated.IsKnown()) {
          seconds = estimated.seconds() + (input.surcharge ? input.surcharge(c) : 0.0);
          costs.usable.emplace_back(c, seconds);
        }
      }
      costs.cost.push_back(seconds);
    }
  }
  costs.offset.push_back(costs.cost.size());
  return costs;
}

std::vector<size_t> BoundaryNodes(const State& state) {
  std::vector<size_t> nodes;
  nodes.reserve(state.boundary.size());
  for (const BoundaryEntry& entry : state.boundary) nodes.push_back(entry.node);
  return nodes;
}

// Phase 3 from `initial`: A* over covered sets with the cover lower bound, states keyed as
// `keying` says. With a transition penalty and exact keying, a state is dropped when another
// with the same covered set is cheaper by more than the penalties its boundary can still cost.
// Fills result.chosen, total and the state counts. Returns false when no complete state is
// reachable (`farthest_uncovered` then names the node it got stuck at) or when more than
// `max_states` states were created (`over_budget` is then set).
bool RunSearch(const DijkstraInput& input, const IndexSet& initial, const UsableCosts& costs,
               const CoverLowerBound& lower_bound, StateKeying keying, size_t max_states, SearchResult& result,
               size_t& farthest_uncovered, bool& over_budget) {
  const bool penalized = static_cast<bool>(input.options.transition_penalty);
  const bool prune_dominated = penalized && input.options.transition_penalty_bound &&
                               keying == StateKeying::kCoveredAndBoundary;
  FuturePenaltyBound penalty_bound;
  if (prune_dominated) {
    penalty_bound = FuturePenaltyBound(
        input.graph, [&](size_t value) { return input.options.transition_penalty_bound(value, input.graph); });
  }
  // Per covered set: the least (cost so far + future penalty bound) over its states.
  std::unordered_map<IndexSet, double, IndexSetHash> best_bound;

  std::deque<State> states;  // stable addresses: the map's keys point into it
  std::unordered_map<StateKey, size_t, StateKeyHash, StateKeyEqual> state_of(16, StateKeyHash{keying},
                                                                          StateKeyEqual{keying});
  using QueueEntry = std::tuple<double, size_t, size_t>;  // cost + lower bound, insertion order, state
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue;
  std::vector<double> remaining_bound;  // per state
  size_t insertions = 0;
  size_t bytes = 0;
  over_budget = false;
  states.push_back(State{initial, {}, Cost::Zero(), kNone, kNone});
  remaining_bound.push_back(lower_bound.Remaining(initial));
  bytes += StateBytes(states.back());
  state_of.emplace(StateKey{&states.back().covered, &states.back().boundary}, 0);
  queue.emplace(remaining_bound[0], insertions++, 0);
  farthest_uncovered = initial.FirstOutside().value_or(input.graph.size());
  std::optional<size_t> final_state;

  auto note_bound = [&](const State& state) {
    const double bound = state.cost.seconds() + penalty_bound.Bound(state.covered, BoundaryNodes(state));
    auto [entry, inserted] = best_bound.try_emplace(state.covered, bound);
    if (!inserted) entry->second = std::min(entry->second, bound);
  };
  auto dominated = [&](const State& state) {
    auto found = best_bound.find(state.covered);
    return found != best_bound.end() && state.cost.seconds() > found->second;
  };

  while (!queue.empty()) {
    const auto [priority, order, state_index] = queue.top();
    queue.pop();
    if (states[state_index].settled) continue;
    states[state_index].settled = true;
    if (prune_dominated && dominated(states[state_index])) continue;
    ++result.stats.states_explored;
    const std::optional<size_t> next = FirstUncovered(input, states[state_index].covered);
    if (!next) {
      final_state = state_index;
      break;
    }
    farthest_uncovered = std::max(farthest_uncovered, *next);
    const std::vector<size_t>& starting = input.starting_at[*next];
    for (size_t k = 0; k < starting.size(); ++k) {
      const size_t c = starting[k];
      const CandidatePartition& candidate = input.candidates[c];
      const double usable_cost = costs.At(*next, k);
      if (std::isnan(usable_cost)) continue;
      if (!candidate.sub_graph().inside().AreDisjoint(states[state_index].covered)) continue;
      Cost edge = Cost::Seconds(usable_cost);
      IndexSet covered = states[state_index].covered | candidate.sub_graph().inside();
      std::vector<BoundaryEntry> boundary;
      if (penalized) {
        edge += Cost::Seconds(StepBoundary(input, states[state_index], covered, c, boundary));
      }
      const Cost cost = states[state_index].cost + edge;
      auto found = state_of.find(StateKey{&covered, &boundary});
      size_t successor;
      if (found == state_of.end()) {
        if (states.size() >= max_states) {
          over_budget = true;
          result.stats.states_reached = states.size();
          result.stats.peak_state_bytes = std::max(result.stats.peak_state_bytes, bytes);
          return false;
        }
        successor = states.size();
        const double remaining = remaining_bound[state_index] - lower_bound.Share(candidate.sub_graph().inside());
        states.push_back(State{std::move(covered), std::move(boundary), cost, state_index, c});
        remaining_bound.push_back(std::max(0.0, remaining));
        bytes += StateBytes(states.back());
        state_of.emplace(StateKey{&states.back().covered, &states.back().boundary}, successor);
      } else {
        successor = found->second;
        if (states[successor].settled || !(cost < states[successor].cost)) continue;
        states[successor].cost = cost;
        states[successor].predecessor = state_index;
        states[successor].candidate = c;
        // With keying by covered set only, the cheaper path brings its own boundary.
        if (keying == StateKeying::kCoveredOnly) states[successor].boundary = std::move(boundary);
      }
      if (prune_dominated) {
        note_bound(states[successor]);
        if (dominated(states[successor])) continue;
      }
      queue.emplace(cost.seconds() + remaining_bound[successor], insertions++, successor);
    }
  }
  result.stats.states_reached = states.size();
  result.stats.peak_state_bytes = std::max(result.stats.peak_state_bytes, bytes);
  if (!final_state) return false;
  result.total = states[*final_state].cost;
  for (size_t s = *final_state; states[s].predecessor != kNone; s = states[s].predecessor) {
    result.chosen.push_back(input.candidates[states[s].candidate]);
  }
  std::reverse(result.chosen.begin(), result.chosen.end());
  return true;
}

// Exact when the states fit in the budget; otherwise the covered-set-only approximation, which
// needs as many states as the search without penalty does. Throws when even that does not fit.
bool SearchWithinBudget(const DijkstraInput& input, const IndexSet& initial, SearchResult& result,
                 size_t& farthest_uncovered) {
  const UsableCosts costs = CollectUsableCosts(input, initial);
  const CoverLowerBound lower_bound(input.candidates, costs.usable);
  const size_t max_states = input.options.max_states;
  bool over_budget = false;
  const bool penalized = static_cast<bool>(input.options.transition_penalty);
  const StateKeying first = penalized ? StateKeying::kCoveredAndBoundary : StateKeying::kCoveredOnly;
  if (RunSearch(input, initial, costs, lower_bound, first, max_states, result, farthest_uncovered, over_budget)) {
    return true;
  }
  if (!over_budget) return false;
  if (first == StateKeying::kCoveredAndBoundary) {
    result.stats.exact = false;
    result.stats.exact_states_reached = result.stats.states_reached;
    result.stats.states_explored = 0;
    if (RunSearch(input, initial, costs, lower_bound, StateKeying::kCoveredOnly, max_states, result,
                  farthest_uncovered, over_budget)) {
      return true;
    }
    if (!over_budget) return false;
  }
  throw Error("Collage search: more than " + std::to_string(max_states) +
              " search states (the state budget) before a complete placement over " +
              std::to_string(input.graph.size()) + " nodes and " + std::to_string(input.candidates.size()) +
              " candidates; raise the budget or offer fewer candidates");
}

}  // namespace

std::string SearchStats::ToString() const {
  std::ostringstream text;
  text << "candidates=" << candidates << " states_explored=" << states_explored << " states_reached=" << states_reached
       << " state_megabytes=" << static_cast<double>(peak_state_bytes) / 1e6 << " seconds=" << seconds;
  if (!exact) {
    text << " approximate (the exact search stopped at the state budget after " << exact_states_reached
         << " states)";
  }
  return text.str();
}

Cost PlacementCost(const DataflowGraph& graph, const std::vector<CandidatePartition>& chosen, CostEstimator& estimator,
                   const SearchOptions& options) {
  std::vector<std::string> spec_names;
  for (const CandidatePartition& candidate : chosen) {
    if (std::find(spec_names.begin(), spec_names.end(), candidate.spec_name()) == spec_names.end()) {
      spec_names.push_back(candidate.spec_name());
    }
  }
  // With only the placement's own candidates, the one cover there is is the placement.
  return SearchOptimalPlacement(graph, chosen, estimator, spec_names, options).total;
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
  std::vector<bool> coverable(graph.size(), false);
  initial.ForEach([&](size_t index) { coverable[index] = true; });
  std::vector<PartitionSide> sides;
  std::vector<size_t> side_of_candidate;
  side_of_candidate.reserve(candidates.size());
  // Neighbouring candidates mostly share their origin and layouts, hence their side.
  const CandidateOrigin* previous_origin = nullptr;
  PartitionLayouts previous_layouts;
  for (const CandidatePartition& candidate : candidates) {
    candidate.sub_graph().inside().ForEach([&](size_t index) { coverable[index] = true; });
    if (candidate.origin().get() == previous_origin && candidate.boundary_layouts() == previous_layouts) {
      side_of_candidate.push_back(side_of_candidate.back());
      continue;
    }
    const PartitionSide side{candidate.spec_name(), candidate.boundary_layouts()};
    auto found = std::find(sides.begin(), sides.end(), side);
    side_of_candidate.push_back(static_cast<size_t>(found - sides.begin()));
    if (found == sides.end()) sides.push_back(side);
    previous_origin = candidate.origin().get();
    previous_layouts = candidate.boundary_layouts();
  }
  if (auto missing = std::find(coverable.begin(), coverable.end(), false); missing != coverable.end()) {
    throw Error("Collage: no partition spec accepts " +
                DescribeNode(graph, static_cast<size_t>(missing - coverable.begin())) +
                "; specs tried: " + JoinNames(spec_names));
  }

  std::vector<std::string> specs;
  std::vector<size_t> spec_of_side;
  for (const PartitionSide& side : sides) {
    auto found = std::find(specs.begin(), specs.end(), side.spec);
    spec_of_side.push_back(static_cast<size_t>(found - specs.begin()));
    if (found == specs.end()) specs.push_back(side.spec);
  }
  if (options.hand_over_penalty && specs.size() > 64) {
    throw Error("Collage search: a hand-over penalty needs at most 64 partition specs, got " +
                std::to_string(specs.size()));
  }
  DijkstraInput input{graph,    candidates, starting_at, estimator, options, &side_of_candidate, std::move(sides),
                      std::move(spec_of_side), nullptr,    nullptr};
  size_t farthest_uncovered = 0;
  const bool complete = SearchWithinBudget(input, initial, result, farthest_uncovered);
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
  const size_t scope_end = region.IsEmpty() ? 0 : *region.LastInside() + 1;
  const IndexSet initial = IndexSet::Prefix(graph_.size(), scope_end) - region;
  SearchResult result;
  result.stats.candidates = candidates_.size();
  const SearchOptions no_penalty;
  DijkstraInput input{graph_,  candidates_, starting_at_, estimator_, no_penalty, nullptr,
                      {},      {},          allowed,      surcharge,  scope_end};
  size_t farthest_uncovered = 0;
  const bool complete = SearchWithinBudget(input, initial, result, farthest_uncovered);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (!complete) return std::nullopt;
  return result;
}

}  // namespace collage
