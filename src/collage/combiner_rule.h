// Combiner rules: when CombinePartitionRule may join two touching candidates into one.
// `upstream` feeds `downstream` (an inside node of upstream is an input of downstream).
//
//   ByKindSimpleCombinerRule  FuseOps-style joins by OpPatternKind: upstream kind <= U and
//                             downstream kind <= D (e.g. conv2d (OutEWiseFusable) into a
//                             following broadcast op);
//   AllSimpleCombinerRule     joins when any of its simple rules fires; with none, joins
//                             every touching pair (the BYOC "join anything" rule);
//   TupleArgCombinerRule      injective producers into the tuple they are fields of, and a
//                             tuple into an injective consumer (concatenate);
//   TupleProjCombinerRule     a tuple producer with its projections;
//   ConstantCombinerRule      constants into their consumer.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"

namespace collage {

class CombinerRule {
 public:
  virtual ~CombinerRule() = default;
  virtual bool Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const = 0;
  virtual std::string ToString() const = 0;
};

class ByKindSimpleCombinerRule final : public CombinerRule {
 public:
  ByKindSimpleCombinerRule(OpPatternKind max_upstream_kind, OpPatternKind max_downstream_kind)
      : max_upstream_kind_(max_upstream_kind), max_downstream_kind_(max_downstream_kind) {}
  bool Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const override;
  std::string ToString() const override;

 private:
  OpPatternKind max_upstream_kind_;
  OpPatternKind max_downstream_kind_;
};

class AllSimpleCombinerRule final : public CombinerRule {
 public:
  explicit AllSimpleCombinerRule(std::vector<std::shared_ptr<const CombinerRule>> simple_rules = {})
      : simple_rules_(std::move(simple_rules)) {}
  bool Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const override;
  std::string ToString() const override;

 private:
  std::vector<std::shared_ptr<const CombinerRule>> simple_rules_;
};

class TupleArgCombinerRule final : public CombinerRule {
 public:
  bool Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const override;
  std::string ToString() const override { return "TupleArgCombinerRule"; }
};

class TupleProjCombinerRule final : public CombinerRule {
 public:
  bool Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const override;
  std::string ToString() const override { return "TupleProjCombinerRule"; }
};

class ConstantCombinerRule final : public CombinerRule {
 public:
  bool Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const override;
  std::string ToString() const override { return "ConstantCombinerRule"; }
};

// The FuseOps-like rules: OutEWiseFusable into Broadcast, Broadcast into CommReduce,
// Injective into Injective, plus the tuple, projection and constant rules.
std::vector<std::shared_ptr<const CombinerRule>> DefaultCombinerRules();

}  // namespace collage
