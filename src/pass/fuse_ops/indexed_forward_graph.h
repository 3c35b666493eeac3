// The dataflow graph FuseOps works on: the nodes of a function body in post-DFS order,
// each with its consumers and the pattern kind of each consuming edge.
#pragma once

#include <vector>

#include "ir/expr.h"
#include "ir/op_registry.h"
#include "support/pointer_map.h"

namespace collage {

struct IndexedForwardGraph {
  struct Edge {
    size_t consumer;
    OpPatternKind pattern;  // the consumer's kind, lowered to ElemWise for a same-shape broadcast input
  };
  struct Node {
    Expr expr;
    size_t index;
    OpPatternKind pattern = OpPatternKind::kOpaque;
    bool extern_ref = false;  // the function result: used outside the body
    std::vector<Edge> outputs;
  };

  // Nodes in post-DFS order: a consumer always comes after its producers. Op nodes and
  // nested functions are not nodes (they are callees, part of their call).
  std::vector<Node> nodes;
  PointerMap<size_t> index_of;

  // Requires a type-checked body.
  static IndexedForwardGraph Create(const Expr& body);
};

}  // namespace collage
