#include "collage/outline_partitions.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>

#include "backend/precision.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/outline_groups.h"

namespace collage {
namespace {

// A set of original nodes to become one function with `attrs`.
struct Wrapping {
  IndexSet inside;
  Attrs attrs;
};

// The wrappings nested below a Primitive wrapping, by nesting depth (0: directly below).
void CollectNested(const SubGraph& sub_graph, size_t depth, std::vector<std::vector<Wrapping>>& levels) {
  for (const NestedSubGraph& nested : sub_graph.nested()) {
    const bool primitive = nested.attrs->Has(attr::kPrimitive);
    if (!primitive) {
      if (levels.size() <= depth) levels.resize(depth + 1);
      levels[depth].push_back(Wrapping{nested.sub_graph->inside(), *nested.attrs});
    }
    CollectNested(*nested.sub_graph, primitive ? depth : depth + 1, levels);
  }
}

// The body being rewritten, and where each original node's value is in it.
class LevelOutliner {
 public:
  LevelOutliner(const Function& function, const DataflowGraph& graph) : function_(function) {
    for (const DataflowNode& node : graph.nodes()) value_of_.push_back(node.expr);
    graph_.emplace(DataflowGraph::Create(function->body));
  }

  // Outlines each wrapping of `level` into a function with the attributes `attrs_of` gives
  // for its position in `level`.
  void Outline(const std::vector<Wrapping>& level, const std::function<Attrs(size_t)>& attrs_of) {
    if (level.empty()) return;
    std::vector<std::optional<size_t>> group_of(graph_->size());
    for (size_t group = 0; group < level.size(); ++group) {
      for (size_t original : level[group].inside.ToVector()) {
        if (IsInGraph(value_of_[original])) group_of[graph_->IndexOf(value_of_[original].get())] = group;
      }
    }
    std::vector<Expr> new_value_of;
    OutlineOptions options;
    // Constants (weights) go inside the partition: backends pack them once at compile time.
    options.inline_constants = true;
    options.function_attrs = attrs_of;
    options.new_value_of = &new_value_of;
    const Expr body = OutlineGroups(graph_->forward_graph(), group_of, options);
    for (Expr& value : value_of_) {
      value = IsInGraph(value) ? new_value_of[graph_->IndexOf(value.get())] : nullptr;
    }
    function_ = MakeFunction(function_->params, body, function_->attrs);
    InferType(function_);
    graph_.emplace(DataflowGraph::Create(function_->body));
  }

  const Function& function() const { return function_; }
  // Where the original node `index` is in the body now (null once it is only inside a group).
  const Expr& value_of(size_t index) const { return value_of_[index]; }

 private:
  // False for a null value and for a constant an earlier level copied into the functions
  // that use it, leaving no node in the rewritten body.
  bool IsInGraph(const Expr& value) const { return value && graph_->Contains(value.get()); }

  Function function_;
  std::vector<Expr> value_of_;  // by original index; null once inside a group and unused outside, or inlined
  std::optional<DataflowGraph> graph_;
};

// Restates each reduced-precision partition's ActivationRanges from its candidate's order (its
// non-constant inputs in index order) to its function's parameter order.
class RangesInParameterOrder : public ExprMutator {
 public:
  // The values of each such partition's non-constant inputs in index order, by global symbol.
  explicit RangesInParameterOrder(std::unordered_map<std::string, std::vector<const ExprNode*>> inputs_by_symbol)
      : inputs_by_symbol_(std::move(inputs_by_symbol)) {}

 protected:
  Expr RewriteCall(const Call& pre, const Call& post) override {
    const Function callee = Downcast<FunctionNode>(post->callee);
    if (!callee || !callee->attrs.Has(attr::kGlobalSymbol)) return post;
    const auto found = inputs_by_symbol_.find(callee->attrs.GetString(attr::kGlobalSymbol));
    if (found == inputs_by_symbol_.end()) return post;
    const std::vector<double>& bounds = callee->attrs.GetFloats(attr::kActivationRanges);
    const std::vector<const ExprNode*>& inputs = found->second;
    Check(bounds.size() == 2 * inputs.size() && pre->args.size() == inputs.size(),
          "OutlinePartitions: a reduced-precision partition needs one range per non-constant input");
    std::vector<ActivationRange> ranges;
    for (const Expr& arg : pre->args) {
      const size_t position = static_cast<size_t>(std::find(inputs.begin(), inputs.end(), arg.get()) - inputs.begin());
      Check(position < inputs.size(), "OutlinePartitions: a partition argument is none of its inputs");
      ranges.push_back({static_cast<float>(bounds[2 * position]), static_cast<float>(bounds[2 * position + 1])});
    }
    return MakeCall(WithPrecision(callee, PrecisionOf(callee->attrs), ranges), post->args, post->attrs);
  }

 private:
  std::unordered_map<std::string, std::vector<const ExprNode*>> inputs_by_symbol_;
};

}  // namespace

std::vector<size_t> NonConstantInputs(const DataflowGraph& graph, const SubGraph& sub_graph) {
  std::vector<size_t> inputs;
  for (size_t input : sub_graph.input().ToVector()) {
    if (graph.node(input).expr->kind() != ExprKind::kConstant) inputs.push_back(input);
  }
  return inputs;
}

const Attrs* PrimitiveAttrs(const SubGraph& sub_graph) {
  for (const NestedSubGraph& nested : sub_graph.nested()) {
    if (nested.attrs->Has(attr::kPrimitive)) return nested.attrs.get();
  }
  return nullptr;
}

SubGraph WithPrimitiveAttrs(const DataflowGraph& graph, const SubGraph& sub_graph, Attrs attrs) {
  std::vector<NestedSubGraph> nested = sub_graph.nested();
  for (NestedSubGraph& wrapping : nested) {
    if (wrapping.attrs->Has(attr::kPrimitive)) wrapping.attrs = std::make_shared<const Attrs>(attrs);
  }
  return SubGraph(graph, sub_graph.inside(), sub_graph.joined_label(), std::move(nested));
}

Function OutlinePartitions(const Function& function, const DataflowGraph& graph,
                           const std::vector<CandidatePartition>& chosen, NameSupply& names,
                           std::vector<std::string>* symbols) {
  std::vector<std::vector<Wrapping>> nested_levels;
  std::vector<Wrapping> partitions;
  std::vector<size_t> chosen_of_partition;
  for (size_t c = 0; c < chosen.size(); ++c) {
    const Attrs* attrs = PrimitiveAttrs(chosen[c].sub_graph());
    if (attrs == nullptr) continue;
    partitions.push_back(Wrapping{chosen[c].sub_graph().inside(), *attrs});
    chosen_of_partition.push_back(c);
    CollectNested(chosen[c].sub_graph(), 0, nested_levels);
  }
  if (symbols) symbols->assign(chosen.size(), "");
  if (partitions.empty()) return function;
  LevelOutliner outliner(function, graph);
  for (auto level = nested_levels.rbegin(); level != nested_levels.rend(); ++level) {
    outliner.Outline(*level, [&](size_t wrapping) { return (*level)[wrapping].attrs; });
  }
  std::vector<std::string> partition_symbols(partitions.size());
  outliner.Outline(partitions, [&](size_t partition) {
    Attrs named = partitions[partition].attrs;
    const std::string symbol = names.Fresh(named.GetString(attr::kCompiler));
    named.Set(attr::kGlobalSymbol, symbol);
    partition_symbols[partition] = symbol;
    if (symbols) (*symbols)[chosen_of_partition[partition]] = symbol;
    return named;
  });
  std::unordered_map<std::string, std::vector<const ExprNode*>> reduced_inputs;
  for (size_t p = 0; p < partitions.size(); ++p) {
    if (!partitions[p].attrs.Has(attr::kActivationRanges)) continue;
    std::vector<const ExprNode*>& values = reduced_inputs[partition_symbols[p]];
    for (size_t input : NonConstantInputs(graph, chosen[chosen_of_partition[p]].sub_graph())) {
      values.push_back(outliner.value_of(input).get());
    }
  }
  if (reduced_inputs.empty()) return outliner.function();
  const Function& outlined = outliner.function();
  RangesInParameterOrder restate(std::move(reduced_inputs));
  const Function result = MakeFunction(outlined->params, restate.Mutate(outlined->body), outlined->attrs);
  InferType(result);
  return result;
}

}  // namespace collage
