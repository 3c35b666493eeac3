#include "collage/search_bounds.h"

#include <algorithm>
#include <limits>

namespace collage {

CoverLowerBound::CoverLowerBound(const std::vector<CandidatePartition>& candidates,
                                 const std::unordered_map<size_t, double>& usable) {
  for (const auto& [c, seconds] : usable) {
    const std::vector<size_t> nodes = candidates[c].sub_graph().inside().ToVector();
    if (nodes.empty()) continue;
    const double share = seconds / static_cast<double>(nodes.size());
    for (size_t node : nodes) {
      auto [entry, inserted] = cheapest_share_.try_emplace(node, share);
      if (!inserted) entry->second = std::min(entry->second, share);
    }
  }
  // Shares are shrunk by a relative hair so that rounding in the sums never makes the bound
  // exceed a true cost.
  for (auto& [node, share] : cheapest_share_) share *= 1 - 1e-9;
}

double CoverLowerBound::Remaining(const IndexSet& covered) const {
  double total = 0;
  for (const auto& [node, share] : cheapest_share_) {
    if (!covered[node]) total += share;
  }
  return total;
}

double CoverLowerBound::Share(const IndexSet& nodes) const {
  double total = 0;
  for (size_t node : nodes.ToVector()) {
    auto found = cheapest_share_.find(node);
    if (found != cheapest_share_.end()) total += found->second;
  }
  return total;
}

FuturePenaltyBound::FuturePenaltyBound(const DataflowGraph& graph, const std::function<double(size_t)>& most_per_value)
    : graph_(&graph), most_per_value_(graph.size()), passed_on_(graph.size(), 0.0) {
  for (size_t node = 0; node < graph.size(); ++node) most_per_value_[node] = most_per_value(node);
  // Consumers come after their producers in post-DFS order, so walk backwards.
  for (size_t node = graph.size(); node-- > 0;) {
    if (graph.node(node).inputs.size() != 1) continue;
    double total = 0;
    for (size_t consumer : graph.node(node).outputs) {
      total += most_per_value_[node];
      if (graph.node(consumer).inputs.size() == 1) total += passed_on_[consumer];
    }
    passed_on_[node] = total;
  }
}

double FuturePenaltyBound::Bound(const IndexSet& covered, const std::vector<size_t>& boundary_nodes) const {
  double total = 0;
  for (size_t node : boundary_nodes) {
    const DataflowNode& dataflow_node = graph_->node(node);
    for (size_t consumer : dataflow_node.outputs) {
      if (covered[consumer]) continue;
      total += most_per_value_[node];
      if (graph_->node(consumer).inputs.size() == 1) total += passed_on_[consumer];
    }
    for (size_t producer : dataflow_node.inputs) {
      if (!covered[producer]) total += most_per_value_[producer];
    }
  }
  return total;
}

}  // namespace collage
