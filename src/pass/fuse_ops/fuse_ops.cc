#include "pass/fuse_ops/fuse_ops.h"

#include <map>
#include <unordered_map>

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/fuse_ops/graph_partitioner.h"

namespace collage {
namespace {

constexpr const char* kMaxDepthOption = "FuseOps.max_depth";

// Rebuilds the body with each group outlined into a primitive function. Nodes are visited
// in post-DFS order, so a group's inputs are rewritten before its root is reached; the
// root (a group's only node used outside it) becomes the call of the group's function.
class GroupOutliner {
 public:
  GroupOutliner(const IndexedForwardGraph& graph, GraphPartitioner& partitioner)
      : graph_(graph), partitioner_(partitioner) {
    for (const auto& node : graph.nodes) members_[partitioner.GroupOf(node.index)].push_back(node.index);
  }

  Expr Rewrite() {
    for (const auto& node : graph_.nodes) {
      const size_t group = partitioner_.GroupOf(node.index);
      if (IsGroupRoot(node.index)) outer_[node.index] = members_[group].size() == 1 && !IsOpCall(node.index)
                                                             ? RebuildPlain(node.index)
                                                             : Outline(group);
    }
    return outer_.at(graph_.nodes.size() - 1);
  }

 private:
  bool IsOpCall(size_t index) const {
    const auto* call = As<CallNode>(graph_.nodes[index].expr);
    return call && call->op();
  }
  // The root is the group member that comes last in post-DFS order.
  bool IsGroupRoot(size_t index) { return members_[partitioner_.GroupOf(index)].back() == index; }

  // A node outside any kernel (variable, constant, tuple, projection, function call),
  // rebuilt on the rewritten operands.
  Expr RebuildPlain(size_t index) {
    const Expr& expr = graph_.nodes[index].expr;
    std::vector<Expr> children;
    ForEachChild(*expr, [&](const Expr& child) {
      auto it = graph_.index_of.find(child.get());
      children.push_back(it == graph_.index_of.end() ? child : outer_.at(it->second));
    });
    return WithChildren(expr, children);
  }

  Expr Outline(size_t group) {
    const std::vector<size_t>& members = members_[group];
    std::unordered_map<size_t, Expr> inner;  // member or input node -> expression inside the function
    std::vector<Var> params;
    std::vector<Expr> args;
    auto operand = [&](const Expr& child) -> Expr {
      auto it = graph_.index_of.find(child.get());
      if (it == graph_.index_of.end()) return child;  // an op callee
      const size_t index = it->second;
      if (auto found = inner.find(index); found != inner.end()) return found->second;
      // An input from outside the group becomes a parameter.
      Var param = MakeVar("p" + std::to_string(params.size()), child->checked_type());
      params.push_back(param);
      args.push_back(outer_.at(index));
      inner[index] = param;
      return param;
    };
    for (size_t member : members) {
      const Expr& expr = graph_.nodes[member].expr;
      if (expr->kind() == ExprKind::kConstant) {  // scalar constants are inlined
        inner[member] = expr;
        continue;
      }
      std::vector<Expr> children;
      ForEachChild(*expr, [&](const Expr& child) { children.push_back(operand(child)); });
      inner[member] = WithChildren(expr, children);
    }
    Function function = MakeFunction(params, inner.at(members.back()), {{attr::kPrimitive, int64_t{1}}});
    return MakeCall(function, args);
  }

  const IndexedForwardGraph& graph_;
  GraphPartitioner& partitioner_;
  std::map<size_t, std::vector<size_t>> members_;  // group root -> members in post-DFS order
  std::unordered_map<size_t, Expr> outer_;         // group root -> its rewritten expression
};

}  // namespace

Function FuseOpsIn(const Function& function, bool fuse, int max_fuse_depth) {
  InferType(function);
  IndexedForwardGraph graph = IndexedForwardGraph::Create(function->body);
  GraphPartitioner partitioner(graph, max_fuse_depth);
  partitioner.Partition(fuse);
  Function fused = MakeFunction(function->params, GroupOutliner(graph, partitioner).Rewrite(), function->attrs);
  InferType(fused);
  return fused;
}

Pass FuseOps() {
  PassConfigRegistry::Global().Register(kMaxDepthOption, int64_t{256}, "maximum number of nodes in a fused group");
  return Pass::FunctionPass({"FuseOps", 0}, [](const Function& function, const Module&, const PassContext& context) {
    return FuseOpsIn(function, context.opt_level > 0, static_cast<int>(context.GetIntConfig(kMaxDepthOption)));
  });
}

}  // namespace collage
