#include "collage/sub_graph_boundary.h"

#include <algorithm>
#include <vector>

#include "support/error.h"

namespace collage {

SubGraphBoundary SubGraphBoundary::Of(const SubGraph& sub_graph) {
  SubGraphBoundary boundary;
  boundary.inside = sub_graph.inside();
  boundary.input = sub_graph.input();
  boundary.output = sub_graph.output();
  boundary.exit = sub_graph.exit();
  boundary.first_inside = sub_graph.first_inside();
  boundary.last_inside = sub_graph.last_inside();
  return boundary;
}

SubGraphBoundary SubGraphBoundary::DisjointUnion(const DataflowGraph& graph, const SubGraphBoundary& other) const {
  if (!inside.AreDisjoint(other.inside)) {
    throw Error("SubGraphBoundary: union of overlapping sub-graphs " + inside.ToString() + " and " +
                other.inside.ToString());
  }
  SubGraphBoundary joined;
  joined.inside = inside | other.inside;
  joined.input = (input | other.input) - joined.inside;
  joined.output = (output | other.output) - joined.inside;
  // A node that is no exit of its side has every consumer inside that side, so the union's exits
  // are among the sides' exits: those still feeding a node outside both, or external.
  std::vector<size_t> exits;
  for (const IndexSet* side_exits : {&exit, &other.exit}) {
    side_exits->ForEach([&](size_t node) {
      const DataflowNode& exit_node = graph.node(node);
      if (exit_node.external || std::any_of(exit_node.outputs.begin(), exit_node.outputs.end(),
                                            [&](size_t consumer) { return !joined.inside[consumer]; })) {
        exits.push_back(node);
      }
    });
  }
  std::sort(exits.begin(), exits.end());
  joined.exit = IndexSet(graph.size(), exits);
  joined.first_inside = std::min(first_inside, other.first_inside);
  joined.last_inside = std::max(last_inside, other.last_inside);
  return joined;
}

bool SubGraphBoundary::IsConvex(const DataflowGraph& graph) const {
  return collage::IsConvex(graph, inside, output, last_inside);
}

}  // namespace collage
