#include "tuning/transition_penalty.h"

#include <cstring>
#include <vector>

#include "support/error.h"
#include "support/statistics.h"
#include "tuning/measurement.h"

namespace collage {
namespace {

constexpr size_t kCopyBytes = size_t{64} << 20;  // beyond any last-level cache here

}  // namespace

double MeasureCopyBandwidth() {
  std::vector<char> source(kCopyBytes, 1), destination(kCopyBytes, 0);
  MeasurementOptions options;
  options.warmup_runs = 1;
  options.min_runs = 5;
  options.max_runs = 9;
  options.budget_seconds = 0.05;
  const Measurement measurement =
      MeasureRepeatedly([&] { std::memcpy(destination.data(), source.data(), kCopyBytes); }, options);
  Check(measurement.median_seconds > 0, "measuring the copy bandwidth: a copy took no time");
  return static_cast<double>(kCopyBytes) / measurement.median_seconds;
}

double ValueBytes(const DataflowGraph& graph, size_t value) {
  const Expr& expr = graph.node(value).expr;
  return expr->kind() == ExprKind::kConstant ? 0.0 : TypeBytes(expr->checked_type());
}

decltype(SearchOptions::transition_penalty) CopyTransitionPenalty(double bytes_per_second) {
  Check(bytes_per_second > 0, "the copy bandwidth must be positive");
  return [bytes_per_second](const std::string&, const std::string&, size_t value, const DataflowGraph& graph) {
    return ValueBytes(graph, value) / bytes_per_second;
  };
}

decltype(SearchOptions::transition_penalty_bound) CopyTransitionPenaltyBound(double bytes_per_second) {
  Check(bytes_per_second > 0, "the copy bandwidth must be positive");
  return [bytes_per_second](size_t value, const DataflowGraph& graph) {
    return ValueBytes(graph, value) / bytes_per_second;
  };
}

}  // namespace collage
