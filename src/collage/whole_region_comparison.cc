#include "collage/whole_region_comparison.h"

#include <sstream>

#include "collage/explain.h"
#include "collage/graph_placement.h"

namespace collage {

namespace {

std::string Milliseconds(const Cost& cost) { return FormatMilliseconds(cost) + (cost.IsKnown() ? " ms" : ""); }

}  // namespace

std::string WholeRegionComparison::ToString() const {
  std::ostringstream text;
  text << "searched " << Milliseconds(searched_cost);
  for (const WholeRegionAlternative& alternative : alternatives) {
    text << ", all " << alternative.spec << " " << Milliseconds(alternative.cost);
  }
  text << ": " << (kept ? "all " + alternatives[*kept].spec + " is kept" : std::string("the searched placement is kept"));
  return text.str();
}

WholeRegionComparison CompareWithWholeRegions(const DataflowGraph& graph,
                                              const std::vector<CandidatePartition>& candidates,
                                              const std::vector<CandidatePartition>& searched,
                                              const std::vector<std::string>& region_specs, CostEstimator& estimator,
                                              const SearchOptions& options) {
  WholeRegionComparison comparison;
  std::vector<CandidatePartition> compared = searched;
  if (!region_specs.empty()) {
    const GraphPlacementSpace space(graph, candidates, searched, region_specs, estimator);
    const uint64_t searched_hash = PlanHash(searched);
    for (const std::string& spec : region_specs) {
      std::vector<CandidatePartition> whole =
          space.MergeAcrossLayouts(space.Decode(space.AllTo(spec)).chosen, /*keep_crossing_bytes=*/false);
      if (PlanHash(whole) == searched_hash) continue;
      compared.insert(compared.end(), whole.begin(), whole.end());
      comparison.alternatives.push_back({spec, std::move(whole), Cost::Unknown()});
    }
  }
  // The decision rests on these few partitions' costs: one slow timing of one of them, taken
  // in a moment of contention, would decide it alone.
  if (!comparison.alternatives.empty()) estimator.Confirm(graph, compared);
  const auto priced = [&](const std::vector<CandidatePartition>& placement) {
    for (const CandidatePartition& partition : placement) partition.ForgetCost();
    return PlacementCost(graph, placement, estimator, options);
  };
  comparison.searched_cost = priced(searched);
  // What an alternative must cost less than: the searched placement's cost raised by the
  // preference, then the cheapest alternative's.
  Cost bar = comparison.searched_cost.IsKnown()
                 ? Cost::Seconds(comparison.searched_cost.seconds() * (1 + kWholeRegionPreference))
                 : Cost::Invalid();
  for (size_t a = 0; a < comparison.alternatives.size(); ++a) {
    WholeRegionAlternative& alternative = comparison.alternatives[a];
    alternative.cost = priced(alternative.chosen);
    if (alternative.cost.IsKnown() && (bar.IsInvalid() || alternative.cost < bar)) {
      bar = alternative.cost;
      comparison.kept = a;
    }
  }
  return comparison;
}

}  // namespace collage
