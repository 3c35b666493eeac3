// The graph-level stage of the Collage partitioner: starting
// from the op-level placement, an evolutionary search (evolutionary_search.h) over one gene per
// operator a region spec can take (graph_placement.h), whose fitness is a whole-plan
// measurement supplied by the caller (end-to-end latency in seconds, +inf when the plan
// fails). The all-0 genome (the op-level plan, its region-spec partitions merged) and, per
// region spec, the genome giving it everything it can take seed the population; fitness is
// cached by plan hash, so a placement is measured once. The best placement replaces the
// op-level one only when its fitness beats the op-level plan's by the asked margin; the
// caller may confirm that with a final interleaved measurement.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "collage/evolutionary_search.h"
#include "collage/graph_placement.h"
#include "collage/partitioner.h"

namespace collage {

// Seconds for a whole placement over one function's dataflow graph; +inf (or NaN) when it fails.
using PlacementFitness = std::function<double(const std::vector<CandidatePartition>& placement)>;

struct GraphSearchOptions {
  // Budgets, rates and seed; the seeds field is filled in (all-0, then all-k per region spec).
  EvolutionaryOptions evolution;
  // Replace only when best < (1 - min_improvement) * op-level fitness.
  double min_improvement = 0;
  // How many of the best placements to hand back as finalists (whole-region ones come on top).
  size_t finalists = 3;
  // Specs whose own placement (the op-level search over that spec and the host spec alone)
  // PartitionWithGraphSearch adds as a finalist "all <spec>" after the whole-region ones: a
  // backend that runs every op but takes no regions, so that the final choice is not slower
  // than that backend alone either.
  std::vector<std::string> alone_specs;
};

// One node whose backend the graph stage changed.
struct ChangedNode {
  size_t node = 0;
  std::string op;
  std::string from_spec;
  std::string to_spec;
};

// What the graph stage did, for the explain output.
struct GraphSearchDescription {
  std::vector<std::string> region_specs;
  size_t genes = 0;
  double op_level_fitness = 0;
  double best_fitness = 0;
  bool replaced = false;
  std::vector<ChangedNode> changed_nodes;         // by node
  std::vector<CandidatePartition> removed;        // op-level partitions not in the best placement
  std::vector<CandidatePartition> added;          // best placement's partitions not in the op-level one
  size_t unhonoured_genes = 0;                    // in the best individual, repaired away
  EvolutionaryStats stats;

  // A few lines: the search's statistics, the fitness before and after, the decision, the
  // changed nodes and the removed and added partitions (backend, ops, nodes). Deterministic
  // given the fitness values.
  std::string ToString() const;
};

// Why a placement is a finalist of the graph stage.
struct FinalistOrigin {
  enum class Kind {
    kWholeRegion,    // everything `spec` can take (a region spec's seed, or an alone spec's placement)
    kBestByFitness,  // the `rank`-th best by fitness (from 1; the op-level and failed ones left out)
    kPenaltyFree,    // the op-level placement searched without the transition penalty
    kMergedAcrossLayouts,    // the op-level placement with touching region partitions merged across layouts
    kMergedChangingLayouts,  // the same, also where that changes the layouts of values crossing them
    kWholeRegionChangingLayouts,  // a kWholeRegion placement of `spec` merged changing layouts
  };
  Kind kind = Kind::kBestByFitness;
  std::string spec;
  size_t rank = 0;

  static FinalistOrigin WholeRegion(std::string spec) { return {Kind::kWholeRegion, std::move(spec), 0}; }
  static FinalistOrigin BestByFitness(size_t rank) { return {Kind::kBestByFitness, "", rank}; }
  static FinalistOrigin PenaltyFree() { return {Kind::kPenaltyFree, "", 0}; }
  static FinalistOrigin MergedAcrossLayouts() { return {Kind::kMergedAcrossLayouts, "", 0}; }
  static FinalistOrigin MergedChangingLayouts() { return {Kind::kMergedChangingLayouts, "", 0}; }
  static FinalistOrigin WholeRegionChangingLayouts(std::string spec) {
    return {Kind::kWholeRegionChangingLayouts, std::move(spec), 0};
  }
  // "all <spec>", "best <rank>", "op-level without transition penalty", "op-level merged across
  // layouts", "op-level merged changing layouts" or "all <spec> merged changing layouts".
  std::string ToString() const;
  // kWholeRegion or kWholeRegionChangingLayouts: a placement of running one backend alone.
  bool IsWholeRegion() const { return kind == Kind::kWholeRegion || kind == Kind::kWholeRegionChangingLayouts; }
  bool operator==(const FinalistOrigin&) const = default;
};

struct GraphSearchResult {
  std::vector<CandidatePartition> chosen;  // the best placement when replaced, else the op-level one
  bool replaced = false;
  // Placements for a final measurement that is not misled by the one lucky fitness measurement
  // the best of many noisy ones tends to be, in order of preference (see ChooseFinalPlacement),
  // distinct and other than the op-level placement: first each region spec's whole-region
  // placement (its seed: everything it can take) unless it failed, which is close to running
  // that backend alone, so the final choice is not slower than it even when fitness and final
  // measurement disagree; then each of those merged also where that changes the layouts of values
  // crossing its partitions (one partition, as running that backend alone is, where pairwise
  // merges stopped at alternating boundary layouts); then the op-level placement merged across layouts
  // (GraphPlacementSpace::MergeAcrossLayouts), keeping the bytes crossing the merged boundaries,
  // then changing them where that merges more, each when it differs from those before, so that
  // whether one partition keeping its layouts inside beats several with their own boundaries is
  // measured and not assumed (a residual connection read in two layouts stops the first); then
  // the best by fitness, best first, at most options.finalists.
  std::vector<std::vector<CandidatePartition>> finalists;
  // Per finalist: why it is one.
  std::vector<FinalistOrigin> finalist_origins;
  // Whether the op-level placement is one of the whole-region placements (kWholeRegion or
  // kWholeRegionChangingLayouts), which is then not a finalist; also when no region spec can
  // take a node the op-level placement does not give it (no gene).
  bool op_level_is_whole_region = false;
  GraphSearchDescription description;
};

// The graph stage over an op-level placement. `candidates` are all candidates of all specs over
// `graph`; `op_level` is the op-level choice (valid, acyclic). With no gene (nothing a region
// spec could take beyond what it has) the op-level placement is kept after one measurement.
GraphSearchResult SearchGraphPlacement(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                                       const std::vector<CandidatePartition>& op_level,
                                       const std::vector<std::string>& region_specs, CostEstimator& estimator,
                                       const PlacementFitness& fitness, const GraphSearchOptions& options);

struct GraphPartitionResult {
  PartitionResult partition;  // outlined; chosen is the graph stage's choice
  std::vector<PartitionResult> finalists;  // search.finalists, outlined
  GraphSearchResult search;
};

// What the CLI calls for `--search graph`: PlaceOpLevel, SearchGraphPlacement on its result,
// the alone specs' own placements added to the finalists after the whole-region ones, then,
// with a transition penalty in `options`, the op-level placement without it (each unless equal
// to one there or to the op-level placement), then OutlinePlacement of the choice and of each
// finalist (each named from the same point of `names`, which then continues past all of them). `partition.total`, `stats`
// and `explanation` stay the op-level search's. Throws Error when a region or alone spec names
// no spec of `specs`.
GraphPartitionResult PartitionWithGraphSearch(const Function& function, const std::vector<PartitionSpec>& specs,
                                              CostEstimator& estimator, const PartitionOptions& options,
                                              const std::vector<std::string>& region_specs,
                                              const PlacementFitness& fitness,
                                              const GraphSearchOptions& graph_options, NameSupply* names = nullptr);

// One placement of the final decision: its median in the interleaved measurement (any unit),
// whether it runs every function as one spec's whole region (the placement of running that
// backend alone), and its time in each round of that measurement (the same rounds, in the same
// order, for every placement; may be empty).
struct FinalMeasurement {
  double latency = 0;
  bool whole_region = false;
  std::vector<double> rounds;
};

// The fewest rounds, as a fraction of them, in which a placement must be faster than the choice
// so far to replace it: 18 of 25, where a placement no faster would win as many by chance in 2 %
// of measurements (one-sided sign test).
constexpr double kLeastWinningRounds = 0.7;

// The final decision over an interleaved measurement of the op-level plan (`placements[0]`) and
// the finalists, in order of preference. The first choice is a whole-region placement: the first
// one, replaced by each later one with a smaller median that was also the faster in at least
// kLeastWinningRounds of the rounds (where both have rounds); the op-level plan when there is
// none. Then each other placement in turn, the op-level plan first, replaces the choice so far
// when its median beats it by more than `min_improvement` (a fraction) and it was the faster in
// at least kLeastWinningRounds of the rounds. So a mixed placement within the measurement noise
// of running one backend alone, or of a preferred mixed one, does not replace it, nor does one
// whose lead in the median came from a few disturbed rounds. Returns the index of the choice: 0 keeps the
// op-level plan, k >= 1 chooses the k-th finalist. `placements` must not be empty.
size_t ChooseFinalPlacement(const std::vector<FinalMeasurement>& placements, double min_improvement);

// A PlacementFitness that outlines the placement into `function` (OutlinePartitions) and
// returns `measure` of the partitioned function; an Error while outlining or measuring gives
// +inf. `function` must be typed.
PlacementFitness FitnessOfOutlined(const Function& function, std::function<double(const Function&)> measure);

}  // namespace collage
