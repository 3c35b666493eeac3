#include "collage/partitioner.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <iterator>
#include <optional>
#include <system_error>
#include <thread>

#include "collage/coalesce_partitions.h"
#include "collage/outline_partitions.h"
#include "ir/type_inference.h"

namespace collage {
namespace {

// Runs every task, each on one of up to `threads` threads (the calling thread among them), then
// rethrows the error of the first failing task in task order.
void RunTasks(const std::vector<std::function<void()>>& tasks, int threads) {
  std::vector<std::exception_ptr> errors(tasks.size());
  std::atomic<size_t> next_task{0};
  auto run = [&] {
    for (size_t task = next_task++; task < tasks.size(); task = next_task++) {
      try {
        tasks[task]();
      } catch (...) {
        errors[task] = std::current_exception();
      }
    }
  };
  const size_t workers = std::min(tasks.size(), static_cast<size_t>(std::max(threads, 1)));
  std::vector<std::thread> helpers;
  for (size_t worker = 1; worker < workers; ++worker) {
    try {
      helpers.emplace_back(run);
    } catch (const std::system_error&) {
      break;  // no thread to be had: the calling thread runs what is left
    }
  }
  run();
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// Every spec's candidates, in spec order, each spec enumerated by one of up to `threads`
// threads. Rethrows the error of the first failing spec in spec order.
std::vector<std::vector<CandidatePartition>> CandidatesOfSpecs(const DataflowGraph& graph,
                                                               const std::vector<PartitionSpec>& specs, int threads) {
  std::vector<std::vector<CandidatePartition>> candidates(specs.size());
  std::vector<std::function<void()>> tasks;
  for (size_t spec = 0; spec < specs.size(); ++spec) {
    tasks.push_back([&, spec] { candidates[spec] = specs[spec].AllCandidates(graph); });
  }
  RunTasks(tasks, threads);
  return candidates;
}

}  // namespace

OpLevelPlacement PlaceOpLevel(const Function& function, const std::vector<PartitionSpec>& specs,
                              CostEstimator& estimator, const PartitionOptions& options) {
  Check(function != nullptr, "Collage: no function to partition");
  if (!function->body->checked_type()) InferType(function);
  OpLevelPlacement placement{DataflowGraph::Create(function->body), {}, {}, {}, {}};
  std::vector<std::string> spec_names;
  std::vector<std::vector<CandidatePartition>> candidates_of_spec =
      CandidatesOfSpecs(placement.graph, specs, options.threads);
  size_t count = 0;
  for (size_t spec = 0; spec < specs.size(); ++spec) {
    spec_names.push_back(specs[spec].name);
    count += candidates_of_spec[spec].size();
  }
  placement.candidates.reserve(count);
  for (std::vector<CandidatePartition>& candidates : candidates_of_spec) {
    std::move(candidates.begin(), candidates.end(), std::back_inserter(placement.candidates));
    candidates = {};
  }
  estimator.Prepare(placement.graph, placement.candidates);
  placement.search =
      SearchOptimalPlacement(placement.graph, placement.candidates, estimator, spec_names, options.search);
  AcrossLayouts across;
  if (options.coalesce_across_layouts) across.offered = BoundariesOfCandidates(placement.candidates);
  placement.chosen = options.coalesce
                         ? CoalescePartitions(placement.graph, placement.search.chosen, options.coalesce, across)
                         : placement.search.chosen;
  Check(GroupsAreAcyclic(placement.graph, InsideSets(placement.chosen)),
        "Collage: the chosen partitions depend on each other in a cycle; restrict the specs to single-exit sub-graphs");
  if (!options.whole_region_specs.empty()) {
    placement.whole_regions = CompareWithWholeRegions(placement.graph, placement.candidates, placement.chosen,
                                                      options.whole_region_specs, estimator, options.search);
    if (const std::optional<size_t> kept = placement.whole_regions->kept) {
      placement.chosen = placement.whole_regions->alternatives[*kept].chosen;
    }
  }
  return placement;
}

PartitionResult OutlinePlacement(const Function& function, const OpLevelPlacement& placement,
                                 std::vector<CandidatePartition> chosen, CostEstimator& estimator,
                                 const PartitionOptions& options, NameSupply& names) {
  PartitionResult result;
  const bool searched = std::equal(chosen.begin(), chosen.end(), placement.search.chosen.begin(),
                                   placement.search.chosen.end(), [](const auto& lhs, const auto& rhs) {
                                     return lhs.sub_graph() == rhs.sub_graph() && lhs.spec_name() == rhs.spec_name();
                                   });
  result.total = searched ? placement.search.total : PlacementCost(placement.graph, chosen, estimator, options.search);
  result.stats = placement.search.stats;
  result.whole_regions = placement.whole_regions;
  result.chosen = std::move(chosen);
  // Explaining reads the candidates and asks the estimator; outlining touches neither, so with a
  // second thread the two run side by side.
  std::vector<std::function<void()>> tasks = {[&] {
    result.function = OutlinePartitions(function, placement.graph, result.chosen, names, &result.symbols);
  }};
  if (options.explain) {
    tasks.push_back([&] {
      result.explanation = ExplainPlacement(placement.graph, placement.candidates, placement.search, estimator);
    });
  }
  RunTasks(tasks, options.threads);
  return result;
}

PartitionResult Partition(const Function& function, const std::vector<PartitionSpec>& specs, CostEstimator& estimator,
                          const PartitionOptions& options, NameSupply* names) {
  const OpLevelPlacement placement = PlaceOpLevel(function, specs, estimator, options);
  NameSupply local_names;
  return OutlinePlacement(function, placement, placement.chosen, estimator, options,
                          names != nullptr ? *names : local_names);
}

Pass CollagePartition(std::vector<PartitionSpec> specs, std::shared_ptr<CostEstimator> estimator,
                      PartitionOptions options) {
  return Pass::ModulePass(PassInfo{"CollagePartition", 0}, [specs, estimator, options](const Module& module,
                                                                                      const PassContext&) {
    Module partitioned;
    NameSupply names;
    for (const auto& [name, function] : module.functions()) {
      partitioned.Add(name, Partition(function, specs, *estimator, options, &names).function);
    }
    return partitioned;
  });
}

}  // namespace collage
