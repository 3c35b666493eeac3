// The expression nodes of the IR: a pure dataflow graph (no let, no control flow).
//
// Nodes are immutable after construction and shared through shared_ptr, so a graph
// is a DAG: a node used twice is one node. The only mutable field is the checked type,
// which InferType fills in (it is a pure function of the node). Names of variables are
// hints for printing and never affect structural equality.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "ir/type.h"
#include "support/error.h"
#include "support/tensor.h"

namespace collage {

struct OpDef;  // ir/op_registry.h

enum class ExprKind { kVar, kConstant, kOp, kCall, kTuple, kTupleGetItem, kFunction };

class ExprNode {
 public:
  virtual ~ExprNode() = default;
  ExprNode(const ExprNode&) = delete;
  ExprNode& operator=(const ExprNode&) = delete;

  ExprKind kind() const { return kind_; }
  // The type found by InferType; null before it runs.
  const Type& checked_type() const { return checked_type_; }
  void set_checked_type(Type type) const { checked_type_ = std::move(type); }
  // Where the node came from in a text source; unknown for built nodes.
  const SourceLocation& location() const { return location_; }
  void set_location(SourceLocation location) const { location_ = std::move(location); }

 protected:
  explicit ExprNode(ExprKind kind) : kind_(kind) {}

 private:
  ExprKind kind_;
  mutable Type checked_type_;
  mutable SourceLocation location_;
};

using Expr = std::shared_ptr<const ExprNode>;

// A function parameter (or a free variable of a function under construction).
class VarNode final : public ExprNode {
 public:
  VarNode(std::string name_hint, Type type_annotation)
      : ExprNode(ExprKind::kVar), name_hint(std::move(name_hint)), type_annotation(std::move(type_annotation)) {}
  const std::string name_hint;
  const Type type_annotation;
};

// A tensor value known at compile time; owns its data.
class ConstantNode final : public ExprNode {
 public:
  explicit ConstantNode(Tensor data) : ExprNode(ExprKind::kConstant), data(std::move(data)) {}
  const Tensor data;
};

// A reference to a registered operator; used as the callee of a Call.
class OpNode final : public ExprNode {
 public:
  explicit OpNode(const OpDef* def);
  const OpDef* const def;
  const std::string& name() const;
};

// callee(args..., attrs). The callee is an OpNode or a FunctionNode.
class CallNode final : public ExprNode {
 public:
  CallNode(Expr callee, std::vector<Expr> args, Attrs attrs)
      : ExprNode(ExprKind::kCall), callee(std::move(callee)), args(std::move(args)), attrs(std::move(attrs)) {}
  const Expr callee;
  const std::vector<Expr> args;
  const Attrs attrs;
  // The op when the callee is an op, else nullptr.
  const OpDef* op() const;
};

class TupleNode final : public ExprNode {
 public:
  explicit TupleNode(std::vector<Expr> fields) : ExprNode(ExprKind::kTuple), fields(std::move(fields)) {}
  const std::vector<Expr> fields;
};

class TupleGetItemNode final : public ExprNode {
 public:
  TupleGetItemNode(Expr tuple, int index)
      : ExprNode(ExprKind::kTupleGetItem), tuple(std::move(tuple)), index(index) {}
  const Expr tuple;
  const int index;
};

// Function attribute names used by partitioning.
namespace attr {
inline constexpr const char* kPrimitive = "Primitive";            // int 1: a fused kernel
inline constexpr const char* kComposite = "Composite";            // string: pattern label
inline constexpr const char* kCompiler = "Compiler";              // string: backend name
inline constexpr const char* kGlobalSymbol = "global_symbol";     // string: unique name
inline constexpr const char* kPartitionedFromPattern = "PartitionedFromPattern";
// string: the layout of a partition's rank-4 parameters and results ("nhwc", "nchw8c", ...); absent: plain
inline constexpr const char* kBoundaryLayout = "BoundaryLayout";
}  // namespace attr

// A closed function: its body refers only to its own parameters (and constants).
class FunctionNode final : public ExprNode {
 public:
  FunctionNode(std::vector<std::shared_ptr<const VarNode>> params, Expr body, Attrs attrs)
      : ExprNode(ExprKind::kFunction), params(std::move(params)), body(std::move(body)), attrs(std::move(attrs)) {}
  const std::vector<std::shared_ptr<const VarNode>> params;
  const Expr body;
  const Attrs attrs;
};

using Var = std::shared_ptr<const VarNode>;
using Constant = std::shared_ptr<const ConstantNode>;
using Op = std::shared_ptr<const OpNode>;
using Call = std::shared_ptr<const CallNode>;
using Tuple = std::shared_ptr<const TupleNode>;
using TupleGetItem = std::shared_ptr<const TupleGetItemNode>;
using Function = std::shared_ptr<const FunctionNode>;

Var MakeVar(std::string name_hint, Type type_annotation);
Constant MakeConstant(Tensor data);
// A call with attributes taken as given; see ir/op_registry.h CallOp for op calls with
// attributes checked and defaulted against the op's schema.
Call MakeCall(Expr callee, std::vector<Expr> args, Attrs attrs = {});
Tuple MakeTuple(std::vector<Expr> fields);
TupleGetItem MakeTupleGetItem(Expr tuple, int index);
Function MakeFunction(std::vector<Var> params, Expr body, Attrs attrs = {});

// Downcasts: nullptr when the node is of another kind.
template <typename NodeType>
const NodeType* As(const Expr& expr);
template <typename NodeType>
std::shared_ptr<const NodeType> Downcast(const Expr& expr);

// The direct operands of a node in canonical order: a call's callee then its arguments,
// a tuple's fields, a projection's tuple, a function's parameters then its body.
std::vector<Expr> Children(const ExprNode& node);
// Same order as Children, without allocating.
void ForEachChild(const ExprNode& node, const std::function<void(const Expr&)>& visit);

// Short description for error messages: "call to nn.conv2d", "variable %x", ...
std::string DescribeExpr(const ExprNode& node);

// `expr` as a call of the operator named `op_name`; nullptr when it is anything else.
const CallNode* AsCallOf(const Expr& expr, std::string_view op_name);

template <typename NodeType>
constexpr ExprKind KindOfNode();
template <> constexpr ExprKind KindOfNode<VarNode>() { return ExprKind::kVar; }
template <> constexpr ExprKind KindOfNode<ConstantNode>() { return ExprKind::kConstant; }
template <> constexpr ExprKind KindOfNode<OpNode>() { return ExprKind::kOp; }
template <> constexpr ExprKind KindOfNode<CallNode>() { return ExprKind::kCall; }
template <> constexpr ExprKind KindOfNode<TupleNode>() { return ExprKind::kTuple; }
template <> constexpr ExprKind KindOfNode<TupleGetItemNode>() { return ExprKind::kTupleGetItem; }
template <> constexpr ExprKind KindOfNode<FunctionNode>() { return ExprKind::kFunction; }

template <typename NodeType>
const NodeType* As(const Expr& expr) {
  return expr && expr->kind() == KindOfNode<NodeType>() ? static_cast<const NodeType*>(expr.get()) : nullptr;
}

template <typename NodeType>
std::shared_ptr<const NodeType> Downcast(const Expr& expr) {
  return expr && expr->kind() == KindOfNode<NodeType>() ? std::static_pointer_cast<const NodeType>(expr)
                                                        : nullptr;
}

}  // namespace collage
