// A candidate partition: a sub-graph that the backend of one partition spec could run,
// with the rule that found it. Its cost is estimated on first request and then kept.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "collage/cost.h"
#include "collage/sub_graph.h"
#include "support/partition_layouts.h"

namespace collage {

class CostEstimator;

// Where candidates come from: a partition spec, its backend and the rule that found them. One
// origin is shared by every candidate a rule finds in one enumeration.
struct CandidateOrigin {
  std::string spec_name;
  std::string backend;
  std::string rule_name;
};

class CandidatePartition {
 public:
  CandidatePartition(SubGraph sub_graph, std::shared_ptr<const CandidateOrigin> origin);
  CandidatePartition(SubGraph sub_graph, std::string spec_name, std::string backend, std::string rule_name)
      : CandidatePartition(std::move(sub_graph),
                           std::make_shared<const CandidateOrigin>(
                               CandidateOrigin{std::move(spec_name), std::move(backend), std::move(rule_name)})) {}

  const SubGraph& sub_graph() const { return sub_graph_; }
  SubGraph TakeSubGraph() && { return std::move(sub_graph_); }
  const std::shared_ptr<const CandidateOrigin>& origin() const { return origin_; }
  const std::string& spec_name() const { return origin_->spec_name; }
  const std::string& backend() const { return origin_->backend; }
  const std::string& rule_name() const { return origin_->rule_name; }
  // The layouts of its Primitive wrapping's boundary (plain when unwrapped or unset).
  PartitionLayouts boundary_layouts() const { return boundary_layouts_; }
  // The precision its Primitive wrapping computes in (f32 when unwrapped or unset).
  DType precision() const { return precision_; }

  // How many op calls the sub-graph holds.
  size_t CountOpCalls(const DataflowGraph& graph) const;

  // The estimator's cost, asked once.
  Cost EstimatedCost(const DataflowGraph& graph, CostEstimator& estimator) const;
  // Drops the cost kept, so that the next EstimatedCost asks the estimator again (after it
  // confirmed its costs: CostEstimator::Confirm).
  void ForgetCost() const { cost_.reset(); }

  // "spec=tvm backend=tvm rule=primitive.combine.kind {3, 4} ..." (with the cost once known).
  std::string ToString() const;

 private:
  SubGraph sub_graph_;
  std::shared_ptr<const CandidateOrigin> origin_;  // never null
  // Read from the Primitive wrapping's attributes once: the search and the estimator ask for
  // them several times per candidate.
  PartitionLayouts boundary_layouts_;
  DType precision_ = DType::kF32;
  mutable std::optional<Cost> cost_;
};

}  // namespace collage
