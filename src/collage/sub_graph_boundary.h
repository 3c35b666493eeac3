// The boundary of a sub-graph, without its depths: what coalescing asks of a partition while it
// grows (convexity, which partitions it touches, the values crossing it).
//
// A SubGraph derives its shape from its inside set by visiting every inside node; a boundary is
// derived under disjoint union from the two sides' boundaries, by set operations and a check of
// the sides' exits only, so that growing one partition along a chain of n partitions costs
// O(n), not O(n^2). Sets are over the graph's nodes, as in SubGraph.
#pragma once

#include <cstddef>

#include "collage/sub_graph.h"

namespace collage {

struct SubGraphBoundary {
  IndexSet inside;
  IndexSet input;   // outside nodes feeding an inside node
  IndexSet output;  // outside nodes fed by an inside node
  IndexSet exit;    // inside nodes with an output outside, or external
  size_t first_inside = 0;
  size_t last_inside = 0;

  static SubGraphBoundary Of(const SubGraph& sub_graph);

  // The boundary of the union of two sub-graphs with disjoint inside sets; equal to
  // Of(SubGraph(graph, inside | other.inside)) without visiting their inside nodes.
  SubGraphBoundary DisjointUnion(const DataflowGraph& graph, const SubGraphBoundary& other) const;

  bool IsConvex(const DataflowGraph& graph) const;
  // True when an inside node of one feeds an inside node of the other.
  bool Touches(const SubGraphBoundary& other) const {
    return output.Intersects(other.inside) || other.output.Intersects(inside);
  }
};

}  // namespace collage
