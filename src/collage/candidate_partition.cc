#include "collage/candidate_partition.h"

#include "backend/boundary_layout.h"
#include "backend/precision.h"
#include "collage/cost_estimator.h"

namespace collage {

size_t CandidatePartition::CountOpCalls(const DataflowGraph& graph) const {
  size_t ops = 0;
  sub_graph_.inside().ForEach([&](size_t index) {
    if (const auto* call = As<CallNode>(graph.node(index).expr); call && call->op()) ++ops;
  });
  return ops;
}

PartitionLayouts CandidatePartition::boundary_layouts() const {
  for (const NestedSubGraph& nested : sub_graph_.nested()) {
    if (nested.attrs->Has(attr::kPrimitive)) return BoundaryLayoutsOf(*nested.attrs);
  }
  return {};
}

DType CandidatePartition::precision() const {
  for (const NestedSubGraph& nested : sub_graph_.nested()) {
    if (nested.attrs->Has(attr::kPrimitive)) return PrecisionOf(*nested.attrs);
  }
  return DType::kF32;
}

Cost CandidatePartition::EstimatedCost(const DataflowGraph& graph, CostEstimator& estimator) const {
  if (!cost_) cost_ = estimator.Estimate(graph, *this);
  return *cost_;
}

std::string CandidatePartition::ToString() const {
  std::string text =
      "spec=" + spec_name() + " backend=" + backend() + " rule=" + rule_name() + " " + sub_graph_.ToString();
  if (cost_) text += " cost=" + cost_->ToString();
  return text;
}

}  // namespace collage
