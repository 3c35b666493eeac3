#include "collage/partitioner.h"

#include <optional>

#include "collage/outline_partitions.h"
#include "ir/type_inference.h"

namespace collage {
namespace {

std::vector<IndexSet> InsideSets(const std::vector<CandidatePartition>& candidates) {
  std::vector<IndexSet> sets;
  for (const CandidatePartition& candidate : candidates) sets.push_back(candidate.sub_graph().inside());
  return sets;
}

// Greedily merges touching Primitive partitions of one backend, earliest pairs first.
std::vector<CandidatePartition> Coalesce(const DataflowGraph& graph, std::vector<CandidatePartition> chosen) {
  const SubGraphConfig convex_only{.max_exits = 0, .allow_taps = true, .max_depth = 0};
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < chosen.size() && !merged; ++i) {
      for (size_t j = i + 1; j < chosen.size() && !merged; ++j) {
        const CandidatePartition& lhs = chosen[i];
        const CandidatePartition& rhs = chosen[j];
        if (lhs.backend() != rhs.backend() || !PrimitiveAttrs(lhs.sub_graph()) || !PrimitiveAttrs(rhs.sub_graph()) ||
            !lhs.sub_graph().Touches(rhs.sub_graph())) {
          continue;
        }
        SubGraph joined = lhs.sub_graph().DisjointUnion(graph, rhs.sub_graph());
        if (!joined.IsValid(graph, convex_only)) continue;
        std::vector<CandidatePartition> next = chosen;
        next[i] = CandidatePartition(std::move(joined), lhs.spec_name(), lhs.backend(), "coalesce");
        next.erase(next.begin() + static_cast<std::ptrdiff_t>(j));
        if (!GroupsAreAcyclic(graph, InsideSets(next))) continue;
        chosen = std::move(next);
        merged = true;
      }
    }
  }
  return chosen;
}

}  // namespace

bool GroupsAreAcyclic(const DataflowGraph& graph, const std::vector<IndexSet>& groups) {
  // Units: each group, and each node in no group. Kahn's algorithm on the contracted graph.
  std::vector<size_t> unit_of(graph.size());
  for (size_t node = 0; node < graph.size(); ++node) unit_of[node] = groups.size() + node;
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t node : groups[g].ToVector()) unit_of[node] = g;
  }
  const size_t units = groups.size() + graph.size();
  std::vector<std::vector<size_t>> consumers(units);
  std::vector<size_t> pending(units, 0);
  for (const DataflowNode& node : graph.nodes()) {
    for (size_t output : node.outputs) {
      if (unit_of[node.index] == unit_of[output]) continue;
      consumers[unit_of[node.index]].push_back(unit_of[output]);
      ++pending[unit_of[output]];
    }
  }
  std::vector<size_t> ready;
  for (size_t unit = 0; unit < units; ++unit) {
    if (pending[unit] == 0) ready.push_back(unit);
  }
  size_t done = 0;
  while (!ready.empty()) {
    const size_t unit = ready.back();
    ready.pop_back();
    ++done;
    for (size_t consumer : consumers[unit]) {
      if (--pending[consumer] == 0) ready.push_back(consumer);
    }
  }
  return done == units;
}

PartitionResult Partition(const Function& function, const std::vector<PartitionSpec>& specs, CostEstimator& estimator,
                          const PartitionOptions& options, size_t* next_symbol) {
  Check(function != nullptr, "Collage: no function to partition");
  if (!function->body->checked_type()) InferType(function);
  const DataflowGraph graph = DataflowGraph::Create(function->body);

  std::vector<CandidatePartition> candidates;
  std::vector<std::string> spec_names;
  for (const PartitionSpec& spec : specs) {
    spec_names.push_back(spec.name);
    for (CandidatePartition& candidate : spec.AllCandidates(graph)) candidates.push_back(std::move(candidate));
  }
  estimator.Prepare(graph, candidates);
  const SearchResult search = SearchOptimalPlacement(graph, candidates, estimator, spec_names, options.search);

  PartitionResult result;
  result.total = search.total;
  result.stats = search.stats;
  result.chosen = options.coalesce ? Coalesce(graph, search.chosen) : search.chosen;
  Check(GroupsAreAcyclic(graph, InsideSets(result.chosen)),
        "Collage: the chosen partitions depend on each other in a cycle; restrict the specs to single-exit sub-graphs");

  size_t local_symbol = 0;
  result.function =
      OutlinePartitions(function, graph, result.chosen, next_symbol ? *next_symbol : local_symbol, &result.symbols);
  if (options.explain) result.explanation = ExplainPlacement(graph, candidates, search, estimator);
  return result;
}

Pass CollagePartition(std::vector<PartitionSpec> specs, std::shared_ptr<CostEstimator> estimator,
                      PartitionOptions options) {
  return Pass::ModulePass(PassInfo{"CollagePartition", 0}, [specs, estimator, options](const Module& module,
                                                                                      const PassContext&) {
    Module partitioned;
    size_t next_symbol = 0;
    for (const auto& [name, function] : module.functions()) {
      partitioned.Add(name, Partition(function, specs, *estimator, options, &next_symbol).function);
    }
    return partitioned;
  });
}

}  // namespace collage
