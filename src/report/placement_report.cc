#include "report/placement_report.h"

#include <algorithm>
#include <map>

#include "ir/type.h"
#include "support/error.h"
#include "support/partition_layouts.h"

namespace collage {
namespace {

constexpr size_t kAlternativeLabelWidth = 40;

std::optional<double> Milliseconds(const Cost& cost) {
  if (!cost.IsKnown()) return std::nullopt;
  return cost.seconds() * 1e3;
}

ReportPartition MakePartition(const std::string& symbol, const CandidatePartition& candidate, const DataflowGraph& graph,
                              const Explanation& explanation, CostEstimator& estimator) {
  ReportPartition partition;
  partition.symbol = symbol;
  partition.backend = candidate.backend();
  partition.layout = PartitionLayoutsName(candidate.boundary_layouts());
  partition.precision = DTypeName(candidate.precision());
  partition.ops = candidate.CountOpCalls(graph);
  partition.label = candidate.sub_graph().label();
  partition.estimated_ms = Milliseconds(candidate.EstimatedCost(graph, estimator));
  const ExplainedPartition* explained = explanation.Find(candidate);
  if (explained != nullptr && explained->alternative) {
    const std::optional<double> alternative_ms = Milliseconds(explained->alternative->cost);
    const std::optional<double> chosen_ms = Milliseconds(explained->cost);
    if (alternative_ms && chosen_ms) {
      partition.alternative = ReportAlternative{
          DescribeCandidates(explained->alternative->candidates, kAlternativeLabelWidth), *alternative_ms,
          *alternative_ms - *chosen_ms};
    }
  }
  return partition;
}

// Parameters and calls are drawn; constants, tuples and projections are looked through.
bool IsDrawn(const DataflowNode& node) { return As<VarNode>(node.expr) || As<CallNode>(node.expr); }

std::string NodeLabel(const DataflowNode& node) {
  if (const auto* var = As<VarNode>(node.expr)) return "%" + var->name_hint;
  const auto* call = As<CallNode>(node.expr);
  return call->op() != nullptr ? call->op()->name : "call";
}

}  // namespace

bool ReportRefusal::IsSlowPath() const { return reason.find("slow path") != std::string::npos; }

std::optional<double> ReportPartition::MeasuredOverEstimated() const {
  if (!measured_ms || !estimated_ms || *estimated_ms <= 0.0) return std::nullopt;
  return *measured_ms / *estimated_ms;
}

std::optional<double> PlacementReport::MeasuredPartitionsMs() const {
  if (!measured_end_to_end_ms) return std::nullopt;
  double total = 0.0;
  for (const ReportPartition& partition : partitions) total += partition.measured_ms.value_or(0.0);
  return total;
}

std::optional<double> PlacementReport::AdditiveError() const {
  if (!measured_end_to_end_ms || *measured_end_to_end_ms <= 0.0) return std::nullopt;
  return (*measured_end_to_end_ms - estimated_total_ms) / *measured_end_to_end_ms;
}

void AddPartitionedFunction(PlacementReport& report, const Function& function, const PartitionResult& result,
                            CostEstimator& estimator) {
  if (!result.explanation) throw Error("placement report: the partition result has no explanation");
  const DataflowGraph graph = DataflowGraph::Create(function->body);
  std::vector<std::optional<size_t>> partition_of_node(graph.size());
  for (size_t c = 0; c < result.chosen.size(); ++c) {
    if (result.symbols[c].empty()) continue;
    for (size_t index : result.chosen[c].sub_graph().inside().ToVector()) partition_of_node[index] = report.partitions.size();
    report.partitions.push_back(MakePartition(result.symbols[c], result.chosen[c], graph, *result.explanation, estimator));
  }
  if (const std::optional<double> total_ms = Milliseconds(result.total)) report.estimated_total_ms += *total_ms;

  // The drawn producers of each graph node, as report node numbers; looked-through nodes
  // pass on their own producers.
  std::vector<std::vector<size_t>> drawn_producers(graph.size());
  for (const DataflowNode& node : graph.nodes()) {
    std::vector<size_t> producers;
    for (size_t input : node.inputs) {
      const std::vector<size_t>& through = drawn_producers[input];
      producers.insert(producers.end(), through.begin(), through.end());
    }
    std::sort(producers.begin(), producers.end());
    producers.erase(std::unique(producers.begin(), producers.end()), producers.end());
    if (!IsDrawn(node)) {
      drawn_producers[node.index] = std::move(producers);
      continue;
    }
    drawn_producers[node.index] = {report.nodes.size()};
    report.nodes.push_back({NodeLabel(node), TypeToString(node.expr->checked_type()), partition_of_node[node.index],
                            std::move(producers)});
  }
}

void AddMeasurements(PlacementReport& report, const std::vector<ProfileRow>& rows, double end_to_end_ms, size_t runs) {
  std::map<std::string, size_t> partition_of_symbol;
  for (size_t p = 0; p < report.partitions.size(); ++p) partition_of_symbol.emplace(report.partitions[p].symbol, p);
  for (const ProfileRow& row : rows) {
    const auto found = partition_of_symbol.find(row.call.global_symbol);
    if (found != partition_of_symbol.end()) {
      report.partitions[found->second].measured_ms = row.median_ms;
      continue;
    }
    ReportPartition step;
    step.symbol = row.call.global_symbol;
    step.backend = row.call.backend;
    step.ops = row.call.ops;
    step.label = row.call.ops == 0 ? "(a layout conversion the executor added)" : "(a host call the executor added)";
    step.measured_ms = row.median_ms;
    report.partitions.push_back(std::move(step));
  }
  report.measured_end_to_end_ms = end_to_end_ms;
  report.measured_runs = runs;
}

}  // namespace collage
