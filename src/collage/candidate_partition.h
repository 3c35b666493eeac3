// A candidate partition: a sub-graph that the backend of one partition spec could run,
// with the rule that found it. Its cost is estimated on first request and then kept.
#pragma once

#include <optional>
#include <string>

#include "collage/cost.h"
#include "collage/sub_graph.h"
#include "support/partition_layouts.h"

namespace collage {

class CostEstimator;

class CandidatePartition {
 public:
  CandidatePartition(SubGraph sub_graph, std::string spec_name, std::string backend, std::string rule_name)
      : sub_graph_(std::move(sub_graph)),
        spec_name_(std::move(spec_name)),
        backend_(std::move(backend)),
        rule_name_(std::move(rule_name)) {}

  const SubGraph& sub_graph() const { return sub_graph_; }
  SubGraph TakeSubGraph() && { return std::move(sub_graph_); }
  const std::string& spec_name() const { return spec_name_; }
  const std::string& backend() const { return backend_; }
  const std::string& rule_name() const { return rule_name_; }
  // The layouts of its Primitive wrapping's boundary (plain when unwrapped or unset).
  PartitionLayouts boundary_layouts() const;
  // The precision its Primitive wrapping computes in (f32 when unwrapped or unset).
  DType precision() const;

  // How many op calls the sub-graph holds.
  size_t CountOpCalls(const DataflowGraph& graph) const;

  // The estimator's cost, asked once.
  Cost EstimatedCost(const DataflowGraph& graph, CostEstimator& estimator) const;

  // "spec=tvm backend=tvm rule=primitive.combine.kind {3, 4} ..." (with the cost once known).
  std::string ToString() const;

 private:
  SubGraph sub_graph_;
  std::string spec_name_;
  std::string backend_;
  std::string rule_name_;
  mutable std::optional<Cost> cost_;
};

}  // namespace collage
