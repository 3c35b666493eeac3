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

CandidatePartition::CandidatePartition(SubGraph sub_graph, std::shared_ptr<const CandidateOrigin> origin)
    : sub_graph_(std::move(sub_graph)), origin_(std::move(origin)) {
  for (const NestedSubGraph& nested : sub_graph_.nested()) {
    if (!nested.attrs->Has(attr::kPrimitive)) continue;
    boundary_layouts_ = BoundaryLayoutsOf(*nested.attrs);
    precision_ = PrecisionOf(*nested.attrs);
    break;
  }
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
