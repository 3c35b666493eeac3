#include "collage/graph_search.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "collage/outline_partitions.h"
#include "collage/partition_spec.h"
#include "support/error.h"

namespace collage {
namespace {

// The spec named `name`; an Error naming its `role` ("region", "alone") when there is none.
const PartitionSpec& SpecNamed(const std::vector<PartitionSpec>& specs, const std::string& name, const char* role) {
  const auto found =
      std::find_if(specs.begin(), specs.end(), [&](const PartitionSpec& spec) { return spec.name == name; });
  Check(found != specs.end(), std::string("graph-level search: no partition spec is named '") + name + "' (" + role +
                                  " spec)");
  return *found;
}

// The spec of each node's partition ("" for a node in none).
std::vector<std::string> SpecOfNodes(const DataflowGraph& graph, const std::vector<CandidatePartition>& placement) {
  std::vector<std::string> spec_of(graph.size());
  for (const CandidatePartition& candidate : placement) {
    for (size_t node : candidate.sub_graph().inside().ToVector()) spec_of[node] = candidate.spec_name();
  }
  return spec_of;
}

bool Contains(const std::vector<CandidatePartition>& placement, const CandidatePartition& wanted) {
  for (const CandidatePartition& candidate : placement) {
    if (candidate.spec_name() == wanted.spec_name() && candidate.sub_graph() == wanted.sub_graph()) return true;
  }
  return false;
}

std::vector<CandidatePartition> Missing(const std::vector<CandidatePartition>& from,
                                        const std::vector<CandidatePartition>& in) {
  std::vector<CandidatePartition> missing;
  for (const CandidatePartition& candidate : from) {
    if (!Contains(in, candidate)) missing.push_back(candidate);
  }
  return missing;
}

void Describe(GraphSearchDescription& description, const DataflowGraph& graph,
              const std::vector<CandidatePartition>& op_level, const std::vector<CandidatePartition>& best) {
  const std::vector<std::string> before = SpecOfNodes(graph, op_level);
  const std::vector<std::string> after = SpecOfNodes(graph, best);
  for (size_t node = 0; node < graph.size(); ++node) {
    const auto* call = As<CallNode>(graph.node(node).expr);
    if (call == nullptr || call->op() == nullptr || before[node] == after[node]) continue;
    description.changed_nodes.push_back(ChangedNode{node, call->op()->name, before[node], after[node]});
  }
  description.removed = Missing(op_level, best);
  description.added = Missing(best, op_level);
}

std::string Milliseconds(double seconds) { return FormatMilliseconds(Cost::Seconds(seconds)); }

void PrintPartitions(std::ostringstream& text, const char* heading, const std::vector<CandidatePartition>& partitions) {
  if (partitions.empty()) return;
  text << heading << ":\n";
  for (const CandidatePartition& candidate : partitions) {
    text << "  " << candidate.backend() << "(" << ShortLabel(candidate.sub_graph().label(), 48) << ") "
         << candidate.sub_graph().inside().ToString() << "\n";
  }
}

}  // namespace

std::string FinalistOrigin::ToString() const {
  switch (kind) {
    case Kind::kWholeRegion: return "all " + spec;
    case Kind::kBestByFitness: return "best " + std::to_string(rank);
    case Kind::kPenaltyFree: return "op-level without transition penalty";
    case Kind::kMergedAcrossLayouts: return "op-level merged across layouts";
    case Kind::kMergedChangingLayouts: return "op-level merged changing layouts";
    case Kind::kWholeRegionChangingLayouts: return "all " + spec + " merged changing layouts";
  }
  return "?";
}

std::string GraphSearchDescription::ToString() const {
  std::ostringstream text;
  text << "graph-level search offering regions to";
  for (const std::string& spec : region_specs) text << " " << spec;
  text << ": " << genes << " genes, " << stats.generations << " generations, " << stats.individuals
       << " individuals, " << stats.evaluations << " measured, " << stats.cache_hits << " cached"
       << (stats.stopped_by_time ? ", stopped by the time budget" : "")
       << (stats.stopped_by_stall ? ", stopped when the best stopped improving" : "") << "\n";
  text << "fitness: op-level " << Milliseconds(op_level_fitness) << " ms, best " << Milliseconds(best_fitness)
       << " ms";
  if (op_level_fitness > 0 && op_level_fitness < std::numeric_limits<double>::infinity()) {
    text << " (" << std::showpos << std::fixed << std::setprecision(1)
         << (best_fitness / op_level_fitness - 1) * 100 << std::noshowpos << std::defaultfloat << "%)";
  }
  text << ": " << (replaced ? "replaced the op-level plan" : "kept the op-level plan") << "\n";
  if (!stats.best_per_generation.empty()) {
    text << "best per generation (ms):";
    for (double best : stats.best_per_generation) text << " " << Milliseconds(best);
    text << "\n";
  }
  if (unhonoured_genes > 0) text << "genes repaired in the best individual: " << unhonoured_genes << "\n";
  if (!changed_nodes.empty()) {
    text << "changed nodes:\n";
    for (const ChangedNode& changed : changed_nodes) {
      text << "  node " << changed.node << " " << changed.op << ": " << changed.from_spec << " -> " << changed.to_spec
           << "\n";
    }
  }
  PrintPartitions(text, "removed partitions", removed);
  PrintPartitions(text, "added partitions", added);
  return text.str();
}

GraphSearchResult SearchGraphPlacement(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                                       const std::vector<CandidatePartition>& op_level,
                                       const std::vector<std::string>& region_specs, CostEstimator& estimator,
                                       const PlacementFitness& fitness, const GraphSearchOptions& options) {
  const GraphPlacementSpace space(graph, candidates, op_level, region_specs, estimator);
  GraphSearchResult result;
  GraphSearchDescription& description = result.description;
  description.region_specs = region_specs;
  description.genes = space.genes();
  description.op_level_fitness = fitness(op_level);
  description.best_fitness = description.op_level_fitness;
  result.chosen = op_level;
  const uint64_t op_level_hash = PlanHash(op_level);
  std::unordered_set<uint64_t> finalist_keys;
  // The op-level placement merged across layouts, keeping and then changing crossing bytes.
  const auto add_merged_op_level = [&] {
    for (const bool keep_crossing_bytes : {true, false}) {
      std::vector<CandidatePartition> merged = space.MergeAcrossLayouts(op_level, keep_crossing_bytes);
      const uint64_t key = PlanHash(merged);
      if (key == op_level_hash || !finalist_keys.insert(key).second) continue;
      result.finalists.push_back(std::move(merged));
      result.finalist_origins.push_back(keep_crossing_bytes ? FinalistOrigin::MergedAcrossLayouts()
                                                            : FinalistOrigin::MergedChangingLayouts());
    }
  };
  if (space.genes() == 0) {
    // No region spec can take a node it does not have: the op-level placement is their whole regions.
    result.op_level_is_whole_region = true;
    add_merged_op_level();
    return result;
  }

  std::unordered_map<uint64_t, GraphPlacement> decoded;
  EvolutionaryProblem problem;
  problem.genes = space.genes();
  problem.gene_values = space.gene_values();
  problem.key = [&](const Genome& genome) {
    GraphPlacement placement = space.Decode(genome);
    const uint64_t hash = placement.hash;
    decoded.try_emplace(hash, std::move(placement));
    return hash;
  };
  problem.fitness = [&](const Genome&, uint64_t key) { return fitness(decoded.at(key).chosen); };
  EvolutionaryOptions evolution = options.evolution;
  evolution.seeds = {Genome(space.genes(), 0)};
  for (const std::string& spec : region_specs) evolution.seeds.push_back(space.AllTo(spec));
  evolution.known_fitness.emplace(op_level_hash, description.op_level_fitness);

  const EvolutionaryResult evolved = RunEvolutionarySearch(problem, evolution);
  const GraphPlacement& best = decoded.at(evolved.best_key);
  description.stats = evolved.stats;
  description.best_fitness = evolved.best_fitness;
  description.unhonoured_genes = best.unhonoured_genes;
  description.replaced = evolved.best_fitness < (1 - options.min_improvement) * description.op_level_fitness;
  result.replaced = description.replaced;
  if (result.replaced) result.chosen = best.chosen;
  const auto add_finalist = [&](uint64_t key, FinalistOrigin origin) {
    if (key == op_level_hash && origin.IsWholeRegion()) result.op_level_is_whole_region = true;
    if (key == op_level_hash || !finalist_keys.insert(key).second) return;
    result.finalists.push_back(decoded.at(key).chosen);
    result.finalist_origins.push_back(std::move(origin));
  };
  std::unordered_map<uint64_t, double> fitness_of_key(evolved.ranked.begin(), evolved.ranked.end());
  std::vector<std::pair<std::string, uint64_t>> whole_regions;  // spec, key: those that did not fail
  for (const std::string& spec : region_specs) {
    const uint64_t key = problem.key(space.AllTo(spec));
    const auto known = fitness_of_key.find(key);
    if (known != fitness_of_key.end() && !std::isfinite(known->second)) continue;
    add_finalist(key, FinalistOrigin::WholeRegion(spec));
    whole_regions.emplace_back(spec, key);
  }
  // Pairwise merges that keep the bytes crossing each boundary can leave a whole region split
  // where its candidates' boundary layouts alternate (mobilenet_v2's XNNPACK region: six
  // partitions, plain and nhwc by turns, converting at every edge); merged also where that
  // changes the layouts of values crossing them, it is one partition, as a greedy placement is.
  for (const auto& [spec, whole] : whole_regions) {
    std::vector<CandidatePartition> merged = space.MergeAcrossLayouts(decoded.at(whole).chosen, /*keep_crossing_bytes=*/false);
    const uint64_t key = PlanHash(merged);
    if (key == op_level_hash) result.op_level_is_whole_region = true;
    if (key == op_level_hash || !finalist_keys.insert(key).second) continue;
    result.finalists.push_back(std::move(merged));
    result.finalist_origins.push_back(FinalistOrigin::WholeRegionChangingLayouts(spec));
  }
  add_merged_op_level();
  size_t best_rank = 0;
  for (const auto& [key, seconds] : evolved.ranked) {
    if (best_rank == options.finalists) break;
    if (key == op_level_hash || !std::isfinite(seconds)) continue;
    ++best_rank;
    add_finalist(key, FinalistOrigin::BestByFitness(best_rank));
  }
  Describe(description, graph, op_level, best.chosen);
  return result;
}

GraphPartitionResult PartitionWithGraphSearch(const Function& function, const std::vector<PartitionSpec>& specs,
                                              CostEstimator& estimator, const PartitionOptions& options,
                                              const std::vector<std::string>& region_specs,
                                              const PlacementFitness& fitness, const GraphSearchOptions& graph_options,
                                              NameSupply* names) {
  for (const std::string& region_spec : region_specs) SpecNamed(specs, region_spec, "region");
  for (const std::string& alone_spec : graph_options.alone_specs) SpecNamed(specs, alone_spec, "alone");
  const OpLevelPlacement placement = PlaceOpLevel(function, specs, estimator, options);
  GraphPartitionResult result;
  GraphSearchResult& search = result.search;
  search = SearchGraphPlacement(placement.graph, placement.candidates, placement.chosen, region_specs, estimator,
                                fitness, graph_options);

  // The placement each finalist was chosen over: the op-level one, or one of `extra_sources`.
  std::vector<const OpLevelPlacement*> finalist_sources(search.finalists.size(), &placement);
  std::deque<OpLevelPlacement> extra_sources;  // a deque: finalist_sources point into it
  const uint64_t op_level_hash = PlanHash(placement.chosen);
  std::unordered_set<uint64_t> known = {op_level_hash};
  for (const std::vector<CandidatePartition>& finalist : search.finalists) known.insert(PlanHash(finalist));
  // Extra finalists go right after the whole-region ones ("all <region spec>"), which come
  // first, in the order offered.
  size_t insert_at = 0;
  while (insert_at < search.finalist_origins.size() && search.finalist_origins[insert_at].kind == FinalistOrigin::Kind::kWholeRegion) {
    ++insert_at;
  }
  const auto offer_finalist = [&](OpLevelPlacement source, FinalistOrigin origin) {
    const uint64_t key = PlanHash(source.chosen);
    if (key == op_level_hash && origin.IsWholeRegion()) search.op_level_is_whole_region = true;
    if (!known.insert(key).second) return;
    extra_sources.push_back(std::move(source));
    const auto at = static_cast<std::ptrdiff_t>(insert_at++);
    search.finalists.insert(search.finalists.begin() + at, extra_sources.back().chosen);
    search.finalist_origins.insert(search.finalist_origins.begin() + at, std::move(origin));
    finalist_sources.insert(finalist_sources.begin() + at, &extra_sources.back());
  };
  // The alone specs' placements and the one without penalty are the searches' own answers.
  PartitionOptions searched_only = options;
  searched_only.whole_region_specs.clear();
  for (const std::string& alone_spec : graph_options.alone_specs) {
    offer_finalist(
        PlaceOpLevel(function, {SpecNamed(specs, alone_spec, "alone"), MakeHostSpec()}, estimator, searched_only),
        FinalistOrigin::WholeRegion(alone_spec));
  }
  // The transition penalty charges each hand-over between backends as a copy: right where a
  // partition boundary costs cache misses or layout conversions, wrong where the backends share
  // the memory and the boundary costs nothing (gpt2's GELU between oneDNN's GEMMs, cheaper on
  // the code generator). The op-level placement without it is a finalist after the alone
  // specs' placements; the final measurement settles which holds for the model.
  if (options.search.transition_penalty) {
    PartitionOptions without_penalty = searched_only;
    without_penalty.search.transition_penalty = nullptr;
    without_penalty.search.hand_over_penalty = nullptr;
    without_penalty.search.transition_penalty_bound = nullptr;
    offer_finalist(PlaceOpLevel(function, specs, estimator, without_penalty), FinalistOrigin::PenaltyFree());
  }

  const NameSupply first_names = names != nullptr ? *names : NameSupply();
  NameSupply last_names = first_names;
  const auto outline = [&](const OpLevelPlacement& source, const std::vector<CandidatePartition>& chosen) {
    NameSupply outline_names = first_names;
    PartitionResult outlined = OutlinePlacement(function, source, chosen, estimator, options, outline_names);
    outlined.whole_regions = placement.whole_regions;  // the op-level placement's, whatever the finalist's source
    last_names.AdvancePast(outline_names);
    return outlined;
  };
  result.partition = outline(placement, search.chosen);
  for (size_t f = 0; f < search.finalists.size(); ++f) {
    result.finalists.push_back(outline(*finalist_sources[f], search.finalists[f]));
  }
  if (names != nullptr) *names = last_names;
  return result;
}

namespace {

// Whether `challenger` was faster than `incumbent` in enough of their common rounds; true when
// either has no rounds (the medians alone decide then).
bool WinsEnoughRounds(const FinalMeasurement& challenger, const FinalMeasurement& incumbent) {
  const size_t rounds = std::min(challenger.rounds.size(), incumbent.rounds.size());
  if (rounds == 0) return true;
  size_t wins = 0;
  for (size_t r = 0; r < rounds; ++r) wins += challenger.rounds[r] < incumbent.rounds[r] ? 1 : 0;
  return static_cast<double>(wins) >= kLeastWinningRounds * static_cast<double>(rounds);
}

}  // namespace

size_t ChooseFinalPlacement(const std::vector<FinalMeasurement>& placements, double min_improvement) {
  Check(!placements.empty(), "ChooseFinalPlacement: no placement measured");
  size_t chosen = 0;
  for (size_t p = 0; p < placements.size(); ++p) {
    if (!placements[p].whole_region) continue;
    if (!placements[chosen].whole_region ||
        (placements[p].latency < placements[chosen].latency && WinsEnoughRounds(placements[p], placements[chosen]))) {
      chosen = p;
    }
  }
  for (size_t p = 0; p < placements.size(); ++p) {
    if (placements[p].whole_region || p == chosen) continue;
    if (placements[p].latency < (1 - min_improvement) * placements[chosen].latency &&
        WinsEnoughRounds(placements[p], placements[chosen])) {
      chosen = p;
    }
  }
  return chosen;
}

PlacementFitness FitnessOfOutlined(const Function& function, std::function<double(const Function&)> measure) {
  auto graph = std::make_shared<const DataflowGraph>(DataflowGraph::Create(function->body));
  return [function, graph, measure = std::move(measure)](const std::vector<CandidatePartition>& placement) {
    try {
      NameSupply names;
      return measure(OutlinePartitions(function, *graph, placement, names));
    } catch (const Error&) {
      return std::numeric_limits<double>::infinity();
    }
  };
}

}  // namespace collage
