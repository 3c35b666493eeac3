#include "pass/fuse_ops/fuse_ops.h"

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/fuse_ops/graph_partitioner.h"
#include "pass/outline_groups.h"

namespace collage {
namespace {

constexpr const char* kMaxDepthOption = "FuseOps.max_depth";

}  // namespace

Function FuseOpsIn(const Function& function, bool fuse, int max_fuse_depth) {
  InferType(function);
  IndexedForwardGraph graph = IndexedForwardGraph::Create(function->body);
  GraphPartitioner partitioner(graph, max_fuse_depth);
  partitioner.Partition(fuse);
  // Every op call is in a kernel; other nodes stay outside unless fused into an op's group.
  std::vector<size_t> ops_in_group(graph.nodes.size(), 0);
  for (const auto& node : graph.nodes) {
    const auto* call = As<CallNode>(node.expr);
    if (call && call->op()) ++ops_in_group[partitioner.GroupOf(node.index)];
  }
  std::vector<std::optional<size_t>> group_of(graph.nodes.size());
  for (const auto& node : graph.nodes) {
    const size_t group = partitioner.GroupOf(node.index);
    if (ops_in_group[group] > 0) group_of[node.index] = group;
  }
  OutlineOptions options;
  options.function_attrs = [](size_t) { return Attrs{{attr::kPrimitive, int64_t{1}}}; };
  Function fused = MakeFunction(function->params, OutlineGroups(graph, group_of, options), function->attrs);
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
