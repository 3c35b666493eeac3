#include "pipeline/accuracy_loop.h"

#include <limits>

namespace collage {
namespace {

double ErrorPerSecondSaved(const ReducedPartitionCost& partition) {
  if (partition.seconds_saved <= 0) return std::numeric_limits<double>::infinity();
  return partition.error_alone / partition.seconds_saved;
}

}  // namespace

AccuracyLoopResult RunAccuracyLoop(const std::vector<ReducedPartitionCost>& partitions, double tolerance,
                                   const std::function<double(const std::vector<bool>& reduced)>& measure) {
  AccuracyLoopResult result;
  result.reduced.assign(partitions.size(), true);
  result.error = measure(result.reduced);
  while (result.error > tolerance) {
    size_t worst = partitions.size();
    for (size_t i = 0; i < partitions.size(); ++i) {
      if (!result.reduced[i]) continue;
      if (worst == partitions.size() || ErrorPerSecondSaved(partitions[i]) > ErrorPerSecondSaved(partitions[worst])) {
        worst = i;
      }
    }
    if (worst == partitions.size()) break;
    result.moved_back.push_back({worst, result.error});
    result.reduced[worst] = false;
    result.error = measure(result.reduced);
  }
  result.within_tolerance = result.error <= tolerance;
  return result;
}

}  // namespace collage
