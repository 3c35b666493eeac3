#include "collage/search_bounds.h"

#include <algorithm>
#include <limits>

namespace collage {

CoverLowerBound::CoverLowerBound(const std::vector<CandidatePartition>& candidates,
                                 const std::vector<std::pair<size_t, double>>& usable) {
  size_t first = std::numeric_limits<size_t>::max();
  size_t last = 0;
  for (const auto& [c, seconds] : usable) {
    const SubGraph& sub_graph = candidates[c].sub_graph();
    if (sub_graph.inside().IsEmpty()) continue;
    first = std::min(first, sub_graph.first_inside());
    last = std::max(last, sub_graph.last_inside());
  }
  if (first > last) return;
  constexpr double kNoShare = std::numeric_limits<double>::infinity();
  first_node_ = first;
  cheapest_share_.assign(last - first + 1, kNoShare);
  for (const auto& [c, seconds] : usable) {
    const IndexSet& inside = candidates[c].sub_graph().inside();
    const size_t nodes = inside.Count();
    if (nodes == 0) continue;
    const double share = seconds / static_cast<double>(nodes);
    inside.ForEach([&](size_t node) {
      double& cheapest = cheapest_share_[node - first_node_];
      cheapest = std::min(cheapest, share);
    });
  }
  // Shares are shrunk by a relative hair so that rounding in the sums never makes the bound
  // exceed a true cost.
  for (double& share : cheapest_share_) share = share == kNoShare ? 0.0 : share * (1 - 1e-9);
}

double CoverLowerBound::Remaining(const IndexSet& covered) const {
  double total = 0;
  for (size_t offset = 0; offset < cheapest_share_.size(); ++offset) {
    if (!covered[first_node_ + offset]) total += cheapest_share_[offset];
  }
  return total;
}

double CoverLowerBound::Share(const IndexSet& nodes) const {
  double total = 0;
  nodes.ForEach([&](size_t node) {
    if (node >= first_node_ && node - first_node_ < cheapest_share_.size()) total += cheapest_share_[node - first_node_];
  });
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
