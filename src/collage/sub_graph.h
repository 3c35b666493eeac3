// A sub-graph of a DataflowGraph, named by the set of its "inside" nodes; no expression is
// built until a sub-graph is extracted or rewritten.
//
// Copies are cheap: what is derived from the inside set is computed once and shared by every
// copy, wrapping and relabelling of the sub-graph (the partitioner wraps each candidate once per
// boundary and precision), wrapping attributes are shared, and labels are joined lazily.
//
// Derived sets (all from the inside set, cached):
//   entry:  inside nodes with an input outside;
//   exit:   inside nodes with an output outside, or external (the body result);
//   input:  outside nodes feeding an inside node;
//   output: outside nodes fed by an inside node.
// Wrapping: a sub-graph may carry nested sub-graphs, each to become a function with given
// attributes. WithAttrs wraps the whole sub-graph, so wrapping a sub-graph whose nested
// list holds Composite wrappings with Primitive attributes gives a Primitive function that
// calls Composite functions. DisjointUnion concatenates the nested lists.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "collage/dataflow_graph.h"
#include "collage/joined_label.h"
#include "ir/attrs.h"
#include "support/tensor_format.h"

namespace collage {

// Which sub-graphs a rule may produce. A limit of 0 means "no limit".
struct SubGraphConfig {
  size_t max_exits = 0;
  bool allow_taps = false;  // an exit that also feeds an inside node
  size_t max_depth = 0;     // nodes on the longest inside path
};

class SubGraph;

struct NestedSubGraph {
  std::shared_ptr<const SubGraph> sub_graph;
  std::shared_ptr<const Attrs> attrs;
};

class SubGraph {
 public:
  SubGraph(const DataflowGraph& graph, IndexSet inside, JoinedLabel label = {},
           std::vector<NestedSubGraph> nested = {});

  const IndexSet& inside() const { return shape_->inside; }
  const IndexSet& entry() const { return shape_->entry; }
  const IndexSet& exit() const { return shape_->exit; }
  const IndexSet& input() const { return shape_->input; }
  const IndexSet& output() const { return shape_->output; }
  size_t depth() const { return shape_->depth; }
  // The least fusable pattern kind of the inside nodes.
  OpPatternKind kind() const { return shape_->kind; }
  std::string label() const { return label_.ToString(); }
  const JoinedLabel& joined_label() const { return label_; }
  const std::vector<NestedSubGraph>& nested() const { return nested_; }
  size_t first_inside() const { return shape_->first_inside; }
  size_t last_inside() const { return shape_->last_inside; }
  // How many exits the disjoint union with `other` would have, without building it: an exit of
  // either side stays one when it is external or feeds a node outside both.
  size_t ExitCountOfUnion(const DataflowGraph& graph, const SubGraph& other) const;
  // When this sub-graph feeds `downstream` (disjoint from it), a lower bound of their union's
  // depth without building it: every edge between them leaves an exit of this one, entering an
  // entry of `downstream`, so the union has a path as long as the shortest longest-path-ending
  // at an exit plus the shortest longest-path-starting at an entry.
  size_t UnionDepthAtLeast(const SubGraph& downstream) const;
  // The bytes of the tensor values entering it (inputs) / leaving it (exits), constants aside
  // (they are compiled into a partition), whose bytes differ between two layouts.
  double InputBytesChangedBetween(const DataflowGraph& graph, Layout first, Layout second) const;
  double ExitBytesChangedBetween(const DataflowGraph& graph, Layout first, Layout second) const;

  // Convex (no outside node is both reachable from the inside and reaches the inside),
  // non-empty, and within the config's limits.
  bool IsValid(const DataflowGraph& graph, const SubGraphConfig& config) const;
  // True when an inside node of one feeds an inside node of the other.
  bool Touches(const SubGraph& other) const;
  // Requires disjoint inside sets.
  SubGraph DisjointUnion(const DataflowGraph& graph, const SubGraph& other) const;
  // Whether this sub-graph equals first.DisjointUnion(graph, second) (whose inside set is
  // `union_inside`), without building that union.
  bool IsDisjointUnionOf(const IndexSet& union_inside, const SubGraph& first, const SubGraph& second) const;
  // This sub-graph with one nested sub-graph: itself, to be wrapped in a function with `attrs`.
  SubGraph WithAttrs(const DataflowGraph& graph, Attrs attrs) const;
  // inner->WithAttrs(graph, *attrs), sharing `inner` as the nested sub-graph and `attrs`.
  static SubGraph Wrapping(std::shared_ptr<const SubGraph> inner, std::shared_ptr<const Attrs> attrs);
  SubGraph WithLabel(const DataflowGraph& graph, JoinedLabel label) const;

  // A stand-alone function computing the sub-graph (parameters: the inputs in index order,
  // constants among them too unless options.inline_constant_inputs; result: the exits in
  // index order, a tuple when several). Nested wrappings are not applied.
  struct ExtractOptions {
    bool inline_constant_inputs = false;
    // When set, receives each inside node's expression in the new body.
    std::unordered_map<size_t, Expr>* inner_of = nullptr;
  };
  Function Extract(const DataflowGraph& graph, const ExtractOptions& options) const;
  Function Extract(const DataflowGraph& graph) const { return Extract(graph, ExtractOptions{}); }

  // Identity: inside set and nested wrappings (labels are descriptive only).
  bool operator==(const SubGraph& other) const;
  size_t Hash() const;
  // "{3, 4} kind=OutEWiseFusable depth=2 exits={4} label=conv2d+relu [Composite=x {3, 4}]".
  std::string ToString() const;

 private:
  // What the inside set determines; immutable once built.
  struct Shape {
    IndexSet inside, entry, exit, input, output;
    size_t depth = 0;
    size_t first_inside = 0;
    size_t last_inside = 0;
    size_t least_exit_depth = 0;    // the least depth of a path ending at an exit (0: no exit)
    size_t least_entry_height = 0;  // the least length of the longest path from an entry (0: none)
    OpPatternKind kind = OpPatternKind::kElemWise;
  };
  static std::shared_ptr<const Shape> MakeShape(const DataflowGraph& graph, IndexSet inside_set);

  std::shared_ptr<const Shape> shape_;
  JoinedLabel label_;
  std::vector<NestedSubGraph> nested_;
};

// Whether no node outside `inside` is both reachable from an inside node and reaches one, given
// the nodes fed by the inside (`output`) and the largest inside index (`last_inside`).
bool IsConvex(const DataflowGraph& graph, const IndexSet& inside, const IndexSet& output, size_t last_inside);

// The bytes of the tensor values in `values` (constants aside) whose bytes differ between
// layouts `first` and `second`.
double BytesChangedBetween(const DataflowGraph& graph, const IndexSet& values, Layout first, Layout second);

}  // namespace collage
