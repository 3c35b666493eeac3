// Dataflow patterns: a small language, like Relay's DFPattern, describing
// sub-graphs of the IR that a backend supports or a rewrite applies to.
//
// A pattern is an immutable tree of PatternNodes shared through `Pattern` handles. Sharing a
// node between two places of a pattern is allowed and means nothing special: every occurrence
// is matched on its own (a pattern is a tree, not a DAG with equality constraints), so
// `add($x, $x)` in the text syntax matches add(a, b) for any two a, b that match $x.
//
// Node kinds, and what each matches (see pattern_matcher.h for the exact match results):
//   Wildcard         any expression
//   Op               the op node of one registered op (used as the callee of a call pattern)
//   Call             a call whose callee matches `callee` and whose arguments match `args`, in
//                    order and in number
//   Constant, Var    a constant; a variable (any, or one with the given name hint)
//   Tuple            a tuple whose fields match `fields`, in order and in number
//   TupleGetItem     a projection with the given index (or any index) of a tuple matching `tuple`
//   Alternative      what `left` matches, and what `right` matches
//   Optional         what the call pattern matches, and what its first argument pattern matches
//                    ("x or relu(x)" for relu(x).Optional())
//   Attr             what `pattern` matches, where that expression is a call (or a function)
//                    whose attributes include every given attribute with an equal value
//   Type/Shape/DType what `pattern` matches, where that expression's checked type (InferType)
//                    is the given type / a tensor of the given shape / of the given dtype
//   Dominator        Relay's DominatorPattern: matched at the `child` end. The child matches
//                    there; walking back from its operands, every node reached is either the
//                    one node matching `parent` (where the walk stops), or matches `path` (the
//                    walk goes on through its operands), or is a constant (a side input); and
//                    the child post-dominates the parent: no value between them is used by a
//                    node outside the walked region. Dataflow runs parent -> path* -> child.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ir/attrs.h"
#include "ir/type.h"
#include "support/dtype.h"
#include "support/error.h"
#include "support/shape.h"

namespace collage {

struct OpDef;  // ir/op_registry.h

enum class PatternKind {
  kWildcard,
  kOp,
  kCall,
  kConstant,
  kVar,
  kTuple,
  kTupleGetItem,
  kAlternative,
  kOptional,
  kAttr,
  kType,
  kShape,
  kDType,
  kDominator,
};

// "wildcard", "call", ... for messages.
std::string_view PatternKindName(PatternKind kind);

class PatternNode;

// A shared, immutable pattern; null when default-constructed. The builder methods read like
// the pattern they build: IsOp("nn.relu")(IsOp("add")(Wildcard(), IsConstant())).
class Pattern {
 public:
  Pattern() = default;
  explicit Pattern(std::shared_ptr<const PatternNode> node) : node_(std::move(node)) {}

  const PatternNode* get() const { return node_.get(); }
  const PatternNode* operator->() const { return node_.get(); }
  const PatternNode& operator*() const { return *node_; }
  explicit operator bool() const { return node_ != nullptr; }
  PatternKind kind() const;
  // Identity, not structure.
  bool operator==(const Pattern& other) const { return node_ == other.node_; }

  // The node as `NodeType`, or nullptr when it is of another kind.
  template <typename NodeType>
  const NodeType* As() const;

  // A call pattern with this pattern as the callee. Attributes on an op callee
  // (`IsOp("nn.conv2d").HasAttr(...)`) constrain the call, since ops have no attributes: the
  // result is Attr(Call(op, args)), as the text `nn.conv2d{groups=1}(*, *)` reads. On any
  // other callee (a wildcard meeting a function) they constrain the callee.
  template <typename... Args>
  requires(std::is_convertible_v<Args, Pattern>&&...) Pattern operator()(const Args&... args) const {
    return CallWith(std::vector<Pattern>{Pattern(args)...});
  }
  Pattern CallWith(std::vector<Pattern> args) const;
  // "This call, or its first argument": the call pattern (possibly constrained) must have
  // at least one argument.
  Pattern Optional() const;
  Pattern HasAttr(Attrs attrs) const;
  Pattern HasType(Type type) const;
  Pattern HasShape(Shape shape) const;
  Pattern HasDType(DType dtype) const;
  // A projection of this (tuple) pattern; kAnyTupleIndex matches every index.
  Pattern GetItem(int index) const;

 private:
  std::shared_ptr<const PatternNode> node_;
};

inline constexpr int kAnyTupleIndex = -1;

class PatternNode : public std::enable_shared_from_this<PatternNode> {
 public:
  virtual ~PatternNode() = default;
  PatternNode(const PatternNode&) = delete;
  PatternNode& operator=(const PatternNode&) = delete;
  PatternKind kind() const { return kind_; }
  Pattern handle() const { return Pattern(shared_from_this()); }

 protected:
  explicit PatternNode(PatternKind kind) : kind_(kind) {}

 private:
  PatternKind kind_;
};

class WildcardPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kWildcard;
  WildcardPatternNode() : PatternNode(kKind) {}
};

class OpPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kOp;
  explicit OpPatternNode(const OpDef* op) : PatternNode(kKind), op(op) {}
  const OpDef* const op;
  const std::string& name() const;
};

class CallPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kCall;
  CallPatternNode(Pattern callee, std::vector<Pattern> args)
      : PatternNode(kKind), callee(std::move(callee)), args(std::move(args)) {}
  const Pattern callee;
  const std::vector<Pattern> args;
};

class ConstantPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kConstant;
  ConstantPatternNode() : PatternNode(kKind) {}
};

class VarPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kVar;
  explicit VarPatternNode(std::string name) : PatternNode(kKind), name(std::move(name)) {}
  const std::string name;  // empty: any variable
};

class TuplePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kTuple;
  explicit TuplePatternNode(std::vector<Pattern> fields) : PatternNode(kKind), fields(std::move(fields)) {}
  const std::vector<Pattern> fields;
};

class TupleGetItemPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kTupleGetItem;
  TupleGetItemPatternNode(Pattern tuple, int index) : PatternNode(kKind), tuple(std::move(tuple)), index(index) {}
  const Pattern tuple;
  const int index;  // kAnyTupleIndex: any
};

class AlternativePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kAlternative;
  AlternativePatternNode(Pattern left, Pattern right)
      : PatternNode(kKind), left(std::move(left)), right(std::move(right)) {}
  const Pattern left;
  const Pattern right;
};

class OptionalPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kOptional;
  explicit OptionalPatternNode(Pattern call) : PatternNode(kKind), call(std::move(call)) {}
  const Pattern call;  // a call pattern, possibly under Attr/Type/Shape/DType constraints
  // The first argument pattern of `call`: what matches when the call is absent.
  const Pattern& pass_through() const;
};

class AttrPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kAttr;
  AttrPatternNode(Pattern pattern, Attrs attrs)
      : PatternNode(kKind), pattern(std::move(pattern)), attrs(std::move(attrs)) {}
  const Pattern pattern;
  const Attrs attrs;
};

class TypePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kType;
  TypePatternNode(Pattern pattern, Type type)
      : PatternNode(kKind), pattern(std::move(pattern)), type(std::move(type)) {}
  const Pattern pattern;
  const Type type;
};

class ShapePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kShape;
  ShapePatternNode(Pattern pattern, Shape shape)
      : PatternNode(kKind), pattern(std::move(pattern)), shape(std::move(shape)) {}
  const Pattern pattern;
  const Shape shape;
};

class DTypePatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kDType;
  DTypePatternNode(Pattern pattern, DType dtype) : PatternNode(kKind), pattern(std::move(pattern)), dtype(dtype) {}
  const Pattern pattern;
  const DType dtype;
};

class DominatorPatternNode final : public PatternNode {
 public:
  static constexpr PatternKind kKind = PatternKind::kDominator;
  DominatorPatternNode(Pattern parent, Pattern path, Pattern child)
      : PatternNode(kKind), parent(std::move(parent)), path(std::move(path)), child(std::move(child)) {}
  const Pattern parent;  // the single producer that dominates the region
  const Pattern path;    // what every node between parent and child must match
  const Pattern child;   // the consumer where the match is rooted
};

template <typename NodeType>
const NodeType* Pattern::As() const {
  return node_ && node_->kind() == NodeType::kKind ? static_cast<const NodeType*>(node_.get()) : nullptr;
}

// Builders. Each throws Error (one line, naming what was wrong) for a null operand.
Pattern Wildcard();
// Throws Error("unknown op 'name'") for an op that is not registered.
Pattern IsOp(const std::string& name);
Pattern IsConstant();
// A variable; with a name, only a variable with that name hint.
Pattern IsVar(std::string name = "");
Pattern IsTuple(std::vector<Pattern> fields);
Pattern IsTupleGetItem(Pattern tuple, int index = kAnyTupleIndex);
Pattern IsAlternative(Pattern left, Pattern right);
Pattern operator|(const Pattern& left, const Pattern& right);
Pattern IsOptional(Pattern call);
Pattern HasAttr(Pattern pattern, Attrs attrs);
Pattern HasType(Pattern pattern, Type type);
Pattern HasShape(Pattern pattern, Shape shape);
Pattern HasDType(Pattern pattern, DType dtype);
// Relay's dominates(parent, path, child); see DominatorPatternNode.
Pattern Dominates(Pattern parent, Pattern path, Pattern child);

// The pattern an Attr/Type/Shape/DType constraint constrains; nullptr for other kinds.
const Pattern* ConstrainedPattern(const PatternNode& pattern);

// The call pattern under any Attr/Type/Shape/DType constraints of `pattern`; nullptr when
// there is none.
const CallPatternNode* UnderlyingCall(const Pattern& pattern);

// Ops that every match of `pattern` calls somewhere among the nodes it matches (inside nodes
// and inputs alike), sorted by address: the ops of its call patterns, except where an
// alternative or an optional call leaves a match without them. A graph lacking one of them
// has no match.
std::vector<const OpDef*> OpsEveryMatchCalls(const Pattern& pattern);

// A pattern with the name a backend gives it, e.g. "onednn.conv2d_bias_relu", and where it
// was defined when it came from text.
struct LabelledPattern {
  std::string label;
  Pattern pattern;
  SourceLocation location;
};

}  // namespace collage
