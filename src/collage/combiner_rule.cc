#include "collage/combiner_rule.h"

namespace collage {
namespace {

bool KindAtMost(OpPatternKind kind, OpPatternKind limit) { return static_cast<int>(kind) <= static_cast<int>(limit); }

// True when every edge from `upstream` into `downstream` satisfies `edge_ok(producer, consumer)`.
template <typename EdgePredicate>
bool AllConnectingEdges(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph& downstream,
                        EdgePredicate edge_ok) {
  bool any = false;
  for (size_t consumer : (upstream.output() & downstream.inside()).ToVector()) {
    for (size_t producer : graph.node(consumer).inputs) {
      if (!upstream.inside()[producer]) continue;
      any = true;
      if (!edge_ok(graph.node(producer), graph.node(consumer))) return false;
    }
  }
  return any;
}

bool IsKind(const DataflowNode& node, ExprKind kind) { return node.expr->kind() == kind; }

}  // namespace

bool ByKindSimpleCombinerRule::Fires(const DataflowGraph&, const SubGraph& upstream,
                                     const SubGraph& downstream) const {
  return KindAtMost(upstream.kind(), max_upstream_kind_) && KindAtMost(downstream.kind(), max_downstream_kind_);
}

std::string ByKindSimpleCombinerRule::ToString() const {
  return "ByKindSimpleCombinerRule(" + std::string(OpPatternKindName(max_upstream_kind_)) + " -> " +
         std::string(OpPatternKindName(max_downstream_kind_)) + ")";
}

bool AllSimpleCombinerRule::Fires(const DataflowGraph& graph, const SubGraph& upstream,
                                  const SubGraph& downstream) const {
  if (simple_rules_.empty()) return true;
  for (const auto& rule : simple_rules_) {
    if (rule->Fires(graph, upstream, downstream)) return true;
  }
  return false;
}

std::string AllSimpleCombinerRule::ToString() const {
  if (simple_rules_.empty()) return "AllSimpleCombinerRule(join anything)";
  std::string text = "AllSimpleCombinerRule(";
  for (size_t i = 0; i < simple_rules_.size(); ++i) text += (i ? ", " : "") + simple_rules_[i]->ToString();
  return text + ")";
}

bool TupleArgCombinerRule::Fires(const DataflowGraph& graph, const SubGraph& upstream,
                                 const SubGraph& downstream) const {
  const bool fields_into_tuple =
      KindAtMost(upstream.kind(), OpPatternKind::kInjective) &&
      AllConnectingEdges(graph, upstream, downstream,
                         [](const DataflowNode&, const DataflowNode& consumer) { return IsKind(consumer, ExprKind::kTuple); });
  const bool tuple_into_consumer =
      KindAtMost(downstream.kind(), OpPatternKind::kInjective) &&
      AllConnectingEdges(graph, upstream, downstream, [](const DataflowNode& producer, const DataflowNode& consumer) {
        return IsKind(producer, ExprKind::kTuple) && IsKind(consumer, ExprKind::kCall);
      });
  return fields_into_tuple || tuple_into_consumer;
}

bool TupleProjCombinerRule::Fires(const DataflowGraph& graph, const SubGraph& upstream,
                                  const SubGraph& downstream) const {
  return AllConnectingEdges(graph, upstream, downstream, [](const DataflowNode&, const DataflowNode& consumer) {
    return IsKind(consumer, ExprKind::kTupleGetItem);
  });
}

bool ConstantCombinerRule::Fires(const DataflowGraph& graph, const SubGraph& upstream, const SubGraph&) const {
  for (size_t index : upstream.inside().ToVector()) {
    if (!IsKind(graph.node(index), ExprKind::kConstant)) return false;
  }
  return true;
}

std::vector<std::shared_ptr<const CombinerRule>> DefaultCombinerRules() {
  std::vector<std::shared_ptr<const CombinerRule>> simple_rules = {
      std::make_shared<ByKindSimpleCombinerRule>(OpPatternKind::kOutEWiseFusable, OpPatternKind::kBroadcast),
      std::make_shared<ByKindSimpleCombinerRule>(OpPatternKind::kBroadcast, OpPatternKind::kCommReduce),
      std::make_shared<ByKindSimpleCombinerRule>(OpPatternKind::kInjective, OpPatternKind::kInjective),
  };
  return {std::make_shared<AllSimpleCombinerRule>(simple_rules), std::make_shared<TupleArgCombinerRule>(),
          std::make_shared<TupleProjCombinerRule>(), std::make_shared<ConstantCombinerRule>()};
}

}  // namespace collage
