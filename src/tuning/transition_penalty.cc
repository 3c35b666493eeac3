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

double InputBytes(const DataflowGraph& graph, const CandidatePartition& candidate) {
  double bytes = 0;
  for (size_t index : candidate.sub_graph().input().ToVector()) {
    const Expr& expr = graph.node(index).expr;
    if (expr->kind() == ExprKind::kConstant) continue;
    if (const TensorTypeNode* tensor = AsTensorType(expr->checked_type())) {
      bytes += static_cast<double>(NumElements(tensor->shape)) * static_cast<double>(DTypeSize(tensor->dtype));
    }
  }
  return bytes;
}

decltype(SearchOptions::transition_penalty) CopyTransitionPenalty(double bytes_per_second, std::string host_spec) {
  Check(bytes_per_second > 0, "the copy bandwidth must be positive");
  return [bytes_per_second, host_spec = std::move(host_spec)](const std::string& from, const CandidatePartition& to,
                                                              const DataflowGraph& graph) {
    if (from.empty() || from == host_spec || from == to.spec_name() || to.spec_name() == host_spec) return 0.0;
    return InputBytes(graph, to) / bytes_per_second;
  };
}

}  // namespace collage
