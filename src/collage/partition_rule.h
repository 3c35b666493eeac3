// Partition rules: how to find candidate partitions of a dataflow graph.
//
// Base rules produce candidates from the graph directly:
//   OpPredicatePartitionRule   each call to an op a predicate accepts;
//   OpCallByKindPartitionRule  each op call (fusable or not; the combiners decide joins);
//   HostPartitionRule          each node the host may keep: tuples, projections, constants;
//   DFPatternPartitionRule     each match of a pattern (pattern_partition_rule.h).
// Combinators transform the candidates of their sub-rules:
//   CompositePartitionRule     wrap each in a function with Composite=<rule name>; a
//                              Composite function computes one value, so sub-candidates
//                              that are not convex with a single exit and no tap are dropped;
//   PrimitivePartitionRule     wrap each in a function with Primitive=1, Compiler=<backend>;
//   UnionPartitionRule         all candidates of all sub-rules (duplicates removed);
//   CombinePartitionRule       also every union of touching candidates that the combiner
//                              rules allow, repeatedly (every intermediate result is kept);
//   OnlyValidPartitionRule     drop candidates invalid under a SubGraphConfig.
// Every rule prints itself as an indented tree. Results are deterministic: ordered by first
// inside index, then by discovery.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collage/candidate_partition.h"
#include "collage/combiner_rule.h"
#include "support/partition_layouts.h"
#include "support/quantization.h"
#include "support/tensor_format.h"

namespace collage {

class PartitionRule;

// The calibrated range of a dataflow node's value (nullopt: none, e.g. not an f32 tensor).
using CalibratedRangeOf = std::function<std::optional<ActivationRange>(const ExprNode& node)>;

// A backend (target) and the rule that finds what it could run. With `calibrated_range` set,
// its rule also offers reduced-precision variants of its candidates (PrimitivePartitionRule).
struct PartitionSpec {
  std::string name;
  std::string backend;
  std::shared_ptr<const PartitionRule> rule;
  CalibratedRangeOf calibrated_range = nullptr;

  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph) const;
  std::string ToString() const;
};

class PartitionRule {
 public:
  explicit PartitionRule(std::string name) : name_(std::move(name)) {}
  virtual ~PartitionRule() = default;
  const std::string& name() const { return name_; }

  virtual std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const = 0;
  // This rule's line, then each sub-rule's tree indented by two more spaces.
  std::string ToString(int indent = 0) const;

 protected:
  // The rule's own line, without indentation or newline.
  virtual std::string Describe() const = 0;
  virtual std::vector<const PartitionRule*> SubRules() const { return {}; }
  // The origin of candidates that rule `rule_name` finds for `spec`.
  static std::shared_ptr<const CandidateOrigin> Origin(const PartitionSpec& spec, const std::string& rule_name);

 private:
  std::string name_;
};

using PartitionRulePtr = std::shared_ptr<const PartitionRule>;

class OpPredicatePartitionRule final : public PartitionRule {
 public:
  using Predicate = std::function<bool(const CallNode& call)>;
  OpPredicatePartitionRule(std::string name, Predicate predicate)
      : PartitionRule(std::move(name)), predicate_(std::move(predicate)) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override { return "OpPredicatePartitionRule(" + name() + ")"; }

 private:
  Predicate predicate_;
};

class OpCallByKindPartitionRule final : public PartitionRule {
 public:
  explicit OpCallByKindPartitionRule(std::string name) : PartitionRule(std::move(name)) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override { return "OpCallByKindPartitionRule(" + name() + ")"; }
};

class HostPartitionRule final : public PartitionRule {
 public:
  explicit HostPartitionRule(std::string name) : PartitionRule(std::move(name)) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override { return "HostPartitionRule(" + name() + ")"; }
};

// The shared shape of combinators over one sub-rule.
class UnaryCombinatorRule : public PartitionRule {
 public:
  UnaryCombinatorRule(std::string name, PartitionRulePtr sub_rule)
      : PartitionRule(std::move(name)), sub_rule_(std::move(sub_rule)) {}

 protected:
  std::vector<const PartitionRule*> SubRules() const override { return {sub_rule_.get()}; }
  PartitionRulePtr sub_rule_;
};

class CompositePartitionRule final : public UnaryCombinatorRule {
 public:
  using UnaryCombinatorRule::UnaryCombinatorRule;
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override { return "CompositePartitionRule(" + name() + ")"; }
};

// The reduced precisions a backend computes some ops in (backend/precision.h) and which calls.
struct ReducedPrecisions {
  std::vector<DType> precisions;
  std::function<bool(const CallNode& call, DType precision)> supports;
};

// Wraps each sub-candidate as a Primitive function of the spec's backend, once per boundary
// the backend takes (plain first; backend/boundary_layout.h); a boundary other than plain is
// offered only where a rank-4 value crossing the sub-graph has different bytes in it than in
// the plain boundary and, for a mixed one, than in the uniform boundaries of its two layouts.
//
// Where the spec has calibrated ranges, each wrapping is also offered at every reduced precision
// in which some inside call the backend computes at that precision reads a parameter (a
// non-constant input): a partition's reduced-precision kernels quantize only its parameters,
// whose ranges are known. Such a variant carries Precision and ActivationRanges, the calibrated
// range of each non-constant input in index order (OutlinePartitions restates them in parameter
// order). A sub-graph with an input that has no calibrated range gets no variant.
class PrimitivePartitionRule final : public UnaryCombinatorRule {
 public:
  PrimitivePartitionRule(std::string name, PartitionRulePtr sub_rule,
                         std::vector<PartitionLayouts> boundaries = {PartitionLayouts{}},
                         ReducedPrecisions reduced_precisions = {})
      : UnaryCombinatorRule(std::move(name), std::move(sub_rule)),
        boundaries_(std::move(boundaries)),
        reduced_precisions_(std::move(reduced_precisions)) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override;

 private:
  // The precisions `sub_graph` is offered in besides f32.
  std::vector<DType> VariantPrecisions(const DataflowGraph& graph, const SubGraph& sub_graph) const;

  std::vector<PartitionLayouts> boundaries_;
  ReducedPrecisions reduced_precisions_;
};

// The calibrated ranges of a sub-graph's non-constant inputs (min and max per input, in index
// order), or nullopt when one has none.
std::optional<std::vector<double>> CalibratedInputRanges(const DataflowGraph& graph, const SubGraph& sub_graph,
                                                         const CalibratedRangeOf& calibrated_range);

class OnlyValidPartitionRule final : public UnaryCombinatorRule {
 public:
  OnlyValidPartitionRule(std::string name, PartitionRulePtr sub_rule, SubGraphConfig config)
      : UnaryCombinatorRule(std::move(name), std::move(sub_rule)), config_(config) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override;

 private:
  SubGraphConfig config_;
};

class UnionPartitionRule final : public PartitionRule {
 public:
  UnionPartitionRule(std::string name, std::vector<PartitionRulePtr> sub_rules)
      : PartitionRule(std::move(name)), sub_rules_(std::move(sub_rules)) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override { return "UnionPartitionRule(" + name() + ")"; }
  std::vector<const PartitionRule*> SubRules() const override;

 private:
  std::vector<PartitionRulePtr> sub_rules_;
};

// Joined candidates are kept only when valid under `config`, which bounds their depth and
// exits but not their number: where many branches run side by side (an inception block) the
// single-exit unions of branch suffixes multiply. So joins are made in rounds (a round joins
// the previous round's results with what touches them, smaller unions first) and a union is
// not made once one of its nodes lies in kMaxCandidatesPerNode candidates of the rule already.
class CombinePartitionRule final : public UnaryCombinatorRule {
 public:
  static constexpr size_t kMaxCandidatesPerNode = 512;

  CombinePartitionRule(std::string name, PartitionRulePtr sub_rule,
                       std::vector<std::shared_ptr<const CombinerRule>> combiner_rules, SubGraphConfig config)
      : UnaryCombinatorRule(std::move(name), std::move(sub_rule)),
        combiner_rules_(std::move(combiner_rules)),
        config_(config) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override;

 private:
  bool MayJoin(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream) const;

  std::vector<std::shared_ptr<const CombinerRule>> combiner_rules_;
  SubGraphConfig config_;
};

std::string SubGraphConfigToString(const SubGraphConfig& config);

}  // namespace collage
