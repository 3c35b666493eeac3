#include "ir/structural_equal.h"

#include <unordered_map>

#include "ir/visitor.h"
#include "support/hash.h"

namespace collage {
namespace {

// A graph flattened in post-order, each node's children given as post-order positions.
// Two DAGs are structurally equal iff their flattenings agree position by position.
struct FlatGraph {
  std::vector<Expr> nodes;
  std::vector<std::vector<size_t>> children;

  explicit FlatGraph(const Expr& root) : nodes(PostOrder(root)), children(nodes.size()) {
    std::unordered_map<const ExprNode*, size_t> position;
    position.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      position.emplace(nodes[i].get(), i);
      ForEachChild(*nodes[i], [&](const Expr& child) { children[i].push_back(position.at(child.get())); });
    }
  }
};

// Compares everything about a node except its children.
bool LocalEqual(const ExprNode& lhs, const ExprNode& rhs, const StructuralEqualOptions& options) {
  if (lhs.kind() != rhs.kind()) return false;
  switch (lhs.kind()) {
    case ExprKind::kVar:
      return TypeEqual(static_cast<const VarNode&>(lhs).type_annotation,
                       static_cast<const VarNode&>(rhs).type_annotation);
    case ExprKind::kConstant: {
      const Tensor& a = static_cast<const ConstantNode&>(lhs).data;
      const Tensor& b = static_cast<const ConstantNode&>(rhs).data;
      if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
      return !options.compare_constant_values || a.BitwiseEqual(b);
    }
    case ExprKind::kOp:
      return static_cast<const OpNode&>(lhs).def == static_cast<const OpNode&>(rhs).def;
    case ExprKind::kCall:
      return static_cast<const CallNode&>(lhs).attrs == static_cast<const CallNode&>(rhs).attrs;
    case ExprKind::kTuple:
      return true;
    case ExprKind::kTupleGetItem:
      return static_cast<const TupleGetItemNode&>(lhs).index == static_cast<const TupleGetItemNode&>(rhs).index;
    case ExprKind::kFunction:
      return static_cast<const FunctionNode&>(lhs).attrs == static_cast<const FunctionNode&>(rhs).attrs &&
             static_cast<const FunctionNode&>(lhs).params.size() == static_cast<const FunctionNode&>(rhs).params.size();
  }
  return false;
}

size_t LocalHash(const ExprNode& node, const StructuralHashOptions& options) {
  size_t hash = HashValue(static_cast<int>(node.kind()));
  switch (node.kind()) {
    case ExprKind::kVar:
      return HashCombine(hash, TypeHash(static_cast<const VarNode&>(node).type_annotation));
    case ExprKind::kConstant: {
      const Tensor& data = static_cast<const ConstantNode&>(node).data;
      hash = HashCombine(hash, TypeHash(TensorType(data.dtype(), data.shape())));
      if (options.hash_constant_values) hash = HashCombine(hash, HashBytes(data.raw_data(), data.NumBytes()));
      return hash;
    }
    case ExprKind::kOp:
      return HashCombine(hash, HashValue(static_cast<const OpNode&>(node).name()));
    case ExprKind::kCall:
      return HashCombine(hash, static_cast<const CallNode&>(node).attrs.Hash());
    case ExprKind::kTuple:
      return hash;
    case ExprKind::kTupleGetItem:
      return HashCombine(hash, HashValue(static_cast<const TupleGetItemNode&>(node).index));
    case ExprKind::kFunction:
      return HashCombine(hash, static_cast<const FunctionNode&>(node).attrs.Hash());
  }
  return hash;
}

}  // namespace

bool StructuralEqual(const Expr& lhs, const Expr& rhs, const StructuralEqualOptions& options) {
  if (lhs == rhs) return true;
  if (!lhs || !rhs) return false;
  FlatGraph a(lhs);
  FlatGraph b(rhs);
  if (a.nodes.size() != b.nodes.size()) return false;
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    if (a.children[i] != b.children[i] || !LocalEqual(*a.nodes[i], *b.nodes[i], options)) return false;
  }
  return true;
}

bool StructuralEqual(const Module& lhs, const Module& rhs, const StructuralEqualOptions& options) {
  const auto& a = lhs.functions();
  const auto& b = rhs.functions();
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first || !StructuralEqual(a[i].second, b[i].second, options)) return false;
  }
  return true;
}

size_t StructuralHash(const Expr& expr, const StructuralHashOptions& options) {
  if (!expr) return 0;
  FlatGraph graph(expr);
  size_t hash = HashValue(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    hash = HashCombine(hash, LocalHash(*graph.nodes[i], options));
    hash = HashCombine(hash, graph.children[i].size());
    for (size_t child : graph.children[i]) hash = HashCombine(hash, child);
  }
  return hash;
}

size_t StructuralHash(const Module& module, const StructuralHashOptions& options) {
  size_t hash = HashValue(module.functions().size());
  for (const auto& [name, function] : module.functions()) {
    hash = HashCombine(hash, HashValue(name));
    hash = HashCombine(hash, StructuralHash(function, options));
  }
  return hash;
}

}  // namespace collage
