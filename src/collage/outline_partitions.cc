#include "collage/outline_partitions.h"

#include <functional>
#include <optional>

#include "ir/type_inference.h"
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
    const bool primitive = nested.attrs.Has(attr::kPrimitive);
    if (!primitive) {
      if (levels.size() <= depth) levels.resize(depth + 1);
      levels[depth].push_back(Wrapping{nested.sub_graph->inside(), nested.attrs});
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

 private:
  // False for a null value and for a constant an earlier level copied into the functions
  // that use it, leaving no node in the rewritten body.
  bool IsInGraph(const Expr& value) const { return value && graph_->Contains(value.get()); }

  Function function_;
  std::vector<Expr> value_of_;  // by original index; null once inside a group and unused outside, or inlined
  std::optional<DataflowGraph> graph_;
};

}  // namespace

const Attrs* PrimitiveAttrs(const SubGraph& sub_graph) {
  for (const NestedSubGraph& nested : sub_graph.nested()) {
    if (nested.attrs.Has(attr::kPrimitive)) return &nested.attrs;
  }
  return nullptr;
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
  outliner.Outline(partitions, [&](size_t partition) {
    Attrs named = partitions[partition].attrs;
    const std::string symbol = names.Fresh(named.GetString(attr::kCompiler));
    named.Set(attr::kGlobalSymbol, symbol);
    if (symbols) (*symbols)[chosen_of_partition[partition]] = symbol;
    return named;
  });
  return outliner.function();
}

}  // namespace collage
