#include "pass/outline_groups.h"

#include <cassert>
#include <map>
#include <set>
#include <unordered_map>

#include "ir/visitor.h"

namespace collage {
namespace {

class GroupOutliner {
 public:
  GroupOutliner(const IndexedForwardGraph& graph, const std::vector<std::optional<size_t>>& group_of,
                const OutlineOptions& options)
      : graph_(graph), group_of_(group_of), options_(options), outer_(graph.nodes.size()) {
    for (const auto& node : graph.nodes) {
      if (group_of[node.index]) members_[*group_of[node.index]].push_back(node.index);
    }
  }

  Expr Rewrite() {
    for (const std::vector<size_t>& unit : UnitsInDependencyOrder()) {
      if (!group_of_[unit.front()]) {
        outer_[unit.front()] = Rebuild(unit.front());
      } else {
        Outline(unit);
      }
    }
    Expr result = Outer(graph_.index_of.At(graph_.nodes.back().expr.get()));
    if (options_.new_value_of) *options_.new_value_of = std::move(outer_);
    return result;
  }

 private:
  // Groups and ungrouped nodes ("units"), ordered so that every unit comes after the units
  // it takes operands from; ties go to the unit whose first member is earliest. Throws if
  // the groups are not convex (the contracted graph has a cycle).
  std::vector<std::vector<size_t>> UnitsInDependencyOrder() const {
    std::vector<std::vector<size_t>> units;
    std::vector<size_t> unit_of(graph_.nodes.size());
    std::map<size_t, size_t> unit_of_group;
    for (const auto& node : graph_.nodes) {
      const std::optional<size_t> group = group_of_[node.index];
      if (group && unit_of_group.count(*group)) {
        unit_of[node.index] = unit_of_group[*group];
        units[unit_of[node.index]].push_back(node.index);
        continue;
      }
      unit_of[node.index] = units.size();
      if (group) unit_of_group[*group] = units.size();
      units.push_back({node.index});
    }
    std::vector<std::set<size_t>> consumers(units.size());
    std::vector<size_t> pending_producers(units.size(), 0);
    for (const auto& node : graph_.nodes) {
      for (const auto& edge : node.outputs) {
        const size_t from = unit_of[node.index];
        const size_t to = unit_of[edge.consumer];
        if (from != to && consumers[from].insert(to).second) ++pending_producers[to];
      }
    }
    std::set<size_t> ready;  // unit ids are numbered by first member, so the smallest is earliest
    for (size_t unit = 0; unit < units.size(); ++unit) {
      if (pending_producers[unit] == 0) ready.insert(unit);
    }
    std::vector<std::vector<size_t>> ordered;
    while (!ready.empty()) {
      const size_t unit = *ready.begin();
      ready.erase(ready.begin());
      ordered.push_back(units[unit]);
      for (size_t consumer : consumers[unit]) {
        if (--pending_producers[consumer] == 0) ready.insert(consumer);
      }
    }
    Check(ordered.size() == units.size(), "OutlineGroups: the groups are not convex (outlining would create a cycle)");
    return ordered;
  }

  Expr OperandOutside(const Expr& child) const {
    const size_t* index = graph_.index_of.Find(child.get());
    return index == nullptr ? child : Outer(*index);  // callees are not graph nodes
  }

  Expr Rebuild(size_t index) {
    const Expr& expr = graph_.nodes[index].expr;
    std::vector<Expr> children;
    ForEachChild(*expr, [&](const Expr& child) { children.push_back(OperandOutside(child)); });
    return WithChildren(expr, children);
  }

  void Outline(const std::vector<size_t>& members) {
    const std::optional<size_t> group = group_of_[members.front()];
    std::unordered_map<size_t, Expr> inner;
    std::vector<Var> params;
    std::vector<Expr> args;
    auto operand = [&](const Expr& child) -> Expr {
      const size_t* index = graph_.index_of.Find(child.get());
      if (index == nullptr) return child;
      if (auto found = inner.find(*index); found != inner.end()) return found->second;
      if (options_.inline_constants && child->kind() == ExprKind::kConstant) return child;
      Var param = MakeVar("p" + std::to_string(params.size()), child->checked_type());
      params.push_back(param);
      args.push_back(Outer(*index));
      inner[*index] = param;
      return param;
    };
    std::vector<size_t> outputs;
    for (size_t member : members) {
      const Expr& expr = graph_.nodes[member].expr;
      std::vector<Expr> children;
      ForEachChild(*expr, [&](const Expr& child) { children.push_back(operand(child)); });
      inner[member] = WithChildren(expr, children);
      bool used_outside = graph_.nodes[member].extern_ref;
      for (const auto& edge : graph_.nodes[member].outputs) used_outside |= group_of_[edge.consumer] != group;
      if (used_outside) outputs.push_back(member);
    }
    Check(!outputs.empty(), "OutlineGroups: a group has no output");
    std::vector<Expr> results;
    for (size_t output : outputs) results.push_back(inner.at(output));
    Expr body = results.size() == 1 ? results[0] : MakeTuple(results);
    Expr call = MakeCall(MakeFunction(params, body, options_.function_attrs(*group)), args);
    for (size_t i = 0; i < outputs.size(); ++i) {
      outer_[outputs[i]] = outputs.size() == 1 ? call : Expr(MakeTupleGetItem(call, static_cast<int>(i)));
    }
  }

  // The rewritten value of a node whose unit is already rewritten.
  const Expr& Outer(size_t index) const {
    assert(outer_[index] != nullptr && "units are rewritten in dependency order");
    return outer_[index];
  }

  const IndexedForwardGraph& graph_;
  const std::vector<std::optional<size_t>>& group_of_;
  const OutlineOptions& options_;
  std::map<size_t, std::vector<size_t>> members_;
  std::vector<Expr> outer_;  // by node index; null until the node's unit is rewritten
};

}  // namespace

Expr OutlineGroups(const IndexedForwardGraph& graph, const std::vector<std::optional<size_t>>& group_of,
                   const OutlineOptions& options) {
  return GroupOutliner(graph, group_of, options).Rewrite();
}

}  // namespace collage
