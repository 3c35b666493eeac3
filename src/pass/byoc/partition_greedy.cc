#include "pass/byoc/partition_greedy.h"

#include <algorithm>
#include <unordered_set>

#include "ir/type_inference.h"
#include "pass/byoc/merge_composite.h"
#include "pass/outline_groups.h"

namespace collage {

size_t RegionAssignment::RegionOf(size_t node) {
  while (region_parent[node] != node) {
    region_parent[node] = region_parent[region_parent[node]];
    node = region_parent[node];
  }
  return node;
}

RegionAssignment AnnotateTarget(const Expr& body, const std::vector<SupportDeclaration>& backends) {
  RegionAssignment assignment{IndexedForwardGraph::Create(body), {}, {}};
  const size_t count = assignment.graph.nodes.size();
  assignment.backend_of.resize(count);
  for (size_t i = 0; i < count; ++i) {
    assignment.region_parent.push_back(i);
    const auto* call = As<CallNode>(assignment.graph.nodes[i].expr);
    if (call == nullptr) continue;
    for (size_t b = 0; b < backends.size(); ++b) {
      if (backends[b].Supports(*call)) {
        assignment.backend_of[i] = b;
        break;
      }
    }
  }
  return assignment;
}

namespace {

// True when a path between regions `a` and `b` (either direction) passes through anything
// outside them: merging them would then create a cycle. Paths are taken in the graph with
// every region contracted to one node, since each region runs as one call. `frontier` lists,
// per region root, the region's nodes that feed a node outside it (the others lead nowhere
// else). Only nodes before `limit` are followed: every node of the pair comes before it in
// post-DFS order, so no path back into the pair goes further.
bool PathLeavesRegions(RegionAssignment& assignment, const std::vector<std::vector<size_t>>& frontier, size_t a,
                       size_t b, size_t limit) {
  const auto& nodes = assignment.graph.nodes;
  auto in_pair = [&](size_t region) { return region == a || region == b; };
  std::vector<size_t> stack;  // regions reached outside the pair
  std::unordered_set<size_t> seen;
  auto follow = [&](size_t region, bool from_pair) {
    for (size_t member : frontier[region]) {
      for (const auto& edge : nodes[member].outputs) {
        if (edge.consumer >= limit) continue;
        const size_t next = assignment.RegionOf(edge.consumer);
        if (in_pair(next)) {
          if (!from_pair) return true;  // a direct edge between the pair is fine
          continue;
        }
        stack.push_back(next);
      }
    }
    return false;
  };
  follow(a, true);
  follow(b, true);
  while (!stack.empty()) {
    const size_t region = stack.back();
    stack.pop_back();
    if (!seen.insert(region).second) continue;
    if (follow(region, false)) return true;
  }
  return false;
}

}  // namespace

void MergeCompilerRegions(RegionAssignment& assignment) {
  const auto& nodes = assignment.graph.nodes;
  std::vector<std::vector<size_t>> frontier(nodes.size());  // by region root
  for (size_t node = 0; node < nodes.size(); ++node) {
    if (!nodes[node].outputs.empty()) frontier[node] = {node};
  }
  // In post-DFS order, each node tries to join the regions of its producers of the same backend.
  for (size_t node = 0; node < nodes.size(); ++node) {
    if (!assignment.backend_of[node]) continue;
    ForEachChild(*nodes[node].expr, [&](const Expr& child) {
      const size_t* producer_index = assignment.graph.index_of.Find(child.get());
      if (producer_index == nullptr) return;
      const size_t producer = *producer_index;
      if (assignment.backend_of[producer] != assignment.backend_of[node]) return;
      const size_t mine = assignment.RegionOf(node);
      const size_t theirs = assignment.RegionOf(producer);
      if (mine == theirs || PathLeavesRegions(assignment, frontier, mine, theirs, node + 1)) return;
      assignment.region_parent[mine] = theirs;
      // The joined region's frontier: the nodes of both frontiers that still feed outside it.
      std::vector<size_t> joined;
      for (const std::vector<size_t>* side : {&frontier[theirs], &frontier[mine]}) {
        for (size_t member : *side) {
          const auto& outputs = nodes[member].outputs;
          if (std::any_of(outputs.begin(), outputs.end(),
                          [&](const auto& edge) { return assignment.RegionOf(edge.consumer) != theirs; })) {
            joined.push_back(member);
          }
        }
      }
      frontier[theirs] = std::move(joined);
      frontier[mine] = {};
    });
  }
}

Expr PartitionGraph(RegionAssignment& assignment, const std::vector<SupportDeclaration>& backends,
                    NameSupply& names) {
  const size_t count = assignment.graph.nodes.size();
  std::vector<std::optional<size_t>> group_of(count);
  for (size_t i = 0; i < count; ++i) {
    if (assignment.backend_of[i]) group_of[i] = assignment.RegionOf(i);
  }
  OutlineOptions options;
  options.inline_constants = true;
  options.function_attrs = [&](size_t region) {
    const std::string& backend = backends[*assignment.backend_of[region]].backend;
    return Attrs{{attr::kPrimitive, int64_t{1}},
                 {attr::kCompiler, backend},
                 {attr::kGlobalSymbol, names.Fresh(backend)}};
  };
  return OutlineGroups(assignment.graph, group_of, options);
}

Pass PartitionGreedy(std::vector<SupportDeclaration> backends_in_priority_order) {
  return Pass::ModulePass({"PartitionGreedy", 0}, [backends = std::move(backends_in_priority_order)](
                                                      const Module& module, const PassContext&) {
    Module result;
    NameSupply names;  // global symbols are unique across the module
    for (const auto& [name, function] : module.functions()) {
      InferType(function);
      Function merged = MakeFunction(function->params, MergeCompositeInBody(function->body, backends), function->attrs);
      InferType(merged);
      RegionAssignment assignment = AnnotateTarget(merged->body, backends);
      MergeCompilerRegions(assignment);
      Function partitioned =
          MakeFunction(merged->params, PartitionGraph(assignment, backends, names), merged->attrs);
      InferType(partitioned);
      result.Add(name, partitioned);
    }
    return result;
  });
}

Pass PartitionFor(SupportDeclaration backend) { return PartitionGreedy({std::move(backend)}); }

}  // namespace collage
