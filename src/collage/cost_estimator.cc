#include "collage/cost_estimator.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/structural_equal.h"

namespace collage {
namespace {

double Elements(const Type& type) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) return static_cast<double>(NumElements(tensor->shape));
  double total = 0;
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    for (const Type& field : tuple->fields) total += Elements(field);
  }
  return total;
}

// The size of the reduced (last) dimension of a tensor type; 1 when unknown.
double LastDimension(const Type& type) {
  const TensorTypeNode* tensor = AsTensorType(type);
  return tensor && !tensor->shape.empty() ? static_cast<double>(tensor->shape.back()) : 1.0;
}

}  // namespace

Cost MockCostEstimator::Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) {
  ++calls_;
  return cost_function_(graph, candidate);
}

Cost CostCache::Lookup(const Function& function, const std::string& backend, const std::function<Cost()>& compute) {
  if (const std::optional<Cost> cached = Find(function, backend)) return *cached;
  ++misses_;
  const Cost cost = compute();
  Insert(function, backend, cost);
  return cost;
}

std::optional<Cost> CostCache::Find(const Function& function, const std::string& backend) {
  auto found = entries_.find({StructuralHash(function), backend});
  if (found == entries_.end()) return std::nullopt;
  for (const auto& [cached_function, cost] : found->second) {
    if (StructuralEqual(cached_function, function, {.compare_constant_values = false})) {
      ++hits_;
      return cost;
    }
  }
  return std::nullopt;
}

void CostCache::Insert(const Function& function, const std::string& backend, Cost cost) {
  auto& bucket = entries_[{StructuralHash(function), backend}];
  for (auto& [cached_function, cached_cost] : bucket) {
    if (StructuralEqual(cached_function, function, {.compare_constant_values = false})) {
      cached_cost = cost;
      return;
    }
  }
  bucket.emplace_back(function, cost);
}

double AnalyticCostEstimator::Flops(const CallNode& call) {
  const double output_elements = Elements(call.checked_type());
  const std::string& name = call.op()->name;
  if ((name == "nn.dense" || name == "nn.batch_matmul" || name == "nn.matmul") && !call.args.empty()) {
    return 2.0 * output_elements * LastDimension(call.args[0]->checked_type());
  }
  if (name == "nn.conv2d" && call.args.size() > 1) {
    const double weight = Elements(call.args[1]->checked_type());
    const TensorTypeNode* weight_type = AsTensorType(call.args[1]->checked_type());
    const double out_channels = weight_type && !weight_type->shape.empty() ? weight_type->shape[0] : 1.0;
    return 2.0 * output_elements * weight / std::max(out_channels, 1.0);
  }
  double input_elements = 0;
  for (const Expr& arg : call.args) input_elements += Elements(arg->checked_type());
  return std::max(input_elements, output_elements);
}

double AnalyticCostEstimator::ComputeSeconds(const DataflowNode& node, const BackendPerformance& performance) {
  const auto* call = As<CallNode>(node.expr);
  if (call == nullptr || call->op() == nullptr) return kNoCompute;
  auto it = performance.op_efficiency.find(call->op()->name);
  const double efficiency = it == performance.op_efficiency.end() ? performance.default_efficiency : it->second;
  if (efficiency <= 0) return std::numeric_limits<double>::quiet_NaN();
  return Flops(*call) / (performance.peak_flops * efficiency);
}

void AnalyticCostEstimator::Prepare(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) {
  (void)candidates;
  table_ = NodeTable{graph.body(), {}, {}};
  table_.value_bytes.reserve(graph.size());
  for (const DataflowNode& node : graph.nodes()) table_.value_bytes.push_back(TypeBytes(node.expr->checked_type()));
  for (const auto& [backend, performance] : backends_) {
    std::vector<double>& seconds = table_.compute_seconds[backend];
    seconds.reserve(graph.size());
    for (const DataflowNode& node : graph.nodes()) seconds.push_back(ComputeSeconds(node, performance));
  }
}

Cost AnalyticCostEstimator::Roofline(const DataflowGraph& graph, const SubGraph& sub_graph, const std::string& backend,
                                     const BackendPerformance& performance) const {
  const bool prepared = table_.body != nullptr && table_.body == graph.body();
  const std::vector<double>* table_seconds = nullptr;
  if (prepared) {
    auto found = table_.compute_seconds.find(backend);
    if (found != table_.compute_seconds.end()) table_seconds = &found->second;
  }
  double compute_seconds = 0;
  bool computes = false;
  bool runnable = true;
  sub_graph.inside().ForEach([&](size_t index) {
    if (!runnable) return;
    const double seconds = table_seconds ? (*table_seconds)[index] : ComputeSeconds(graph.node(index), performance);
    if (std::isnan(seconds)) {
      runnable = false;
    } else if (seconds != kNoCompute) {
      compute_seconds += seconds;
      computes = true;
    }
  });
  if (!runnable) return Cost::Invalid();
  if (!computes) return Cost::Zero();
  double bytes = 0;
  auto add_bytes = [&](size_t index) {
    bytes += prepared ? table_.value_bytes[index] : TypeBytes(graph.node(index).expr->checked_type());
  };
  sub_graph.input().ForEach(add_bytes);
  sub_graph.exit().ForEach(add_bytes);
  return Cost::Seconds(std::max(compute_seconds, bytes / performance.memory_bandwidth) + performance.launch_overhead);
}

Cost AnalyticCostEstimator::Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) {
  auto it = backends_.find(candidate.backend());
  if (it == backends_.end()) return Cost::Invalid();
  const Cost cost = Roofline(graph, candidate.sub_graph(), it->first, it->second);
  return cost.IsKnown() ? cost + Cost::Seconds(BoundaryConversionSeconds(graph, candidate, it->second)) : cost;
}

double AnalyticCostEstimator::BoundaryConversionSeconds(const DataflowGraph& graph, const CandidatePartition& candidate,
                                                        const BackendPerformance& performance) {
  const PartitionLayouts layouts = candidate.boundary_layouts();
  if (layouts.IsPlain()) return 0;
  const SubGraph& sub_graph = candidate.sub_graph();
  const double bytes = sub_graph.InputBytesChangedBetween(graph, Layout::kPlain, layouts.parameters) +
                       sub_graph.ExitBytesChangedBetween(graph, Layout::kPlain, layouts.results);
  return 2.0 * bytes / performance.memory_bandwidth;
}

}  // namespace collage
