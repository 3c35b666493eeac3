#include "pattern/pattern.h"

#include <algorithm>
#include <iterator>

#include "ir/op_registry.h"

namespace collage {
namespace {

const Pattern& Required(const Pattern& pattern, std::string_view what) {
  if (!pattern) throw Error(std::string(what) + " needs a pattern, got a null pattern");
  return pattern;
}

const Pattern& Unconstrained(const Pattern& pattern) {
  const Pattern* constrained = ConstrainedPattern(*pattern);
  return constrained != nullptr ? Unconstrained(*constrained) : pattern;
}

// An op pattern under zero or more attribute constraints.
bool IsConstrainedOp(const Pattern& pattern) {
  if (const auto* constrained = pattern.As<AttrPatternNode>()) return IsConstrainedOp(constrained->pattern);
  return pattern.kind() == PatternKind::kOp;
}

}  // namespace

std::string_view PatternKindName(PatternKind kind) {
  switch (kind) {
    case PatternKind::kWildcard: return "wildcard";
    case PatternKind::kOp: return "op";
    case PatternKind::kCall: return "call";
    case PatternKind::kConstant: return "constant";
    case PatternKind::kVar: return "variable";
    case PatternKind::kTuple: return "tuple";
    case PatternKind::kTupleGetItem: return "tuple projection";
    case PatternKind::kAlternative: return "alternative";
    case PatternKind::kOptional: return "optional";
    case PatternKind::kAttr: return "attribute constraint";
    case PatternKind::kType: return "type constraint";
    case PatternKind::kShape: return "shape constraint";
    case PatternKind::kDType: return "dtype constraint";
    case PatternKind::kDominator: return "dominator";
  }
  return "?";
}

PatternKind Pattern::kind() const {
  Check(node_ != nullptr, "a null pattern has no kind");
  return node_->kind();
}

const std::string& OpPatternNode::name() const { return op->name; }

const Pattern* ConstrainedPattern(const PatternNode& pattern) {
  switch (pattern.kind()) {
    case PatternKind::kAttr: return &static_cast<const AttrPatternNode&>(pattern).pattern;
    case PatternKind::kType: return &static_cast<const TypePatternNode&>(pattern).pattern;
    case PatternKind::kShape: return &static_cast<const ShapePatternNode&>(pattern).pattern;
    case PatternKind::kDType: return &static_cast<const DTypePatternNode&>(pattern).pattern;
    default: return nullptr;
  }
}

std::vector<const OpDef*> OpsEveryMatchCalls(const Pattern& pattern) {
  using Ops = std::vector<const OpDef*>;
  auto both = [](Ops first, const Ops& second) {
    first.insert(first.end(), second.begin(), second.end());
    std::sort(first.begin(), first.end());
    first.erase(std::unique(first.begin(), first.end()), first.end());
    return first;
  };
  auto common = [](const Ops& first, const Ops& second) {
    Ops shared;
    std::set_intersection(first.begin(), first.end(), second.begin(), second.end(), std::back_inserter(shared));
    return shared;
  };
  if (!pattern) return {};
  if (const Pattern* constrained = ConstrainedPattern(*pattern.get())) return OpsEveryMatchCalls(*constrained);
  switch (pattern.kind()) {
    case PatternKind::kOp: return {pattern.As<OpPatternNode>()->op};
    case PatternKind::kCall: {
      const auto* call = pattern.As<CallPatternNode>();
      Ops ops = OpsEveryMatchCalls(call->callee);
      for (const Pattern& arg : call->args) ops = both(std::move(ops), OpsEveryMatchCalls(arg));
      return ops;
    }
    case PatternKind::kTuple: {
      Ops ops;
      for (const Pattern& field : pattern.As<TuplePatternNode>()->fields) {
        ops = both(std::move(ops), OpsEveryMatchCalls(field));
      }
      return ops;
    }
    case PatternKind::kTupleGetItem: return OpsEveryMatchCalls(pattern.As<TupleGetItemPatternNode>()->tuple);
    case PatternKind::kAlternative: {
      const auto* alternative = pattern.As<AlternativePatternNode>();
      return common(OpsEveryMatchCalls(alternative->left), OpsEveryMatchCalls(alternative->right));
    }
    case PatternKind::kOptional: {
      const auto* optional = pattern.As<OptionalPatternNode>();
      return common(OpsEveryMatchCalls(optional->call), OpsEveryMatchCalls(optional->pass_through()));
    }
    case PatternKind::kDominator: {
      const auto* dominator = pattern.As<DominatorPatternNode>();
      return both(OpsEveryMatchCalls(dominator->parent), OpsEveryMatchCalls(dominator->child));
    }
    default: return {};
  }
}

const Pattern& OptionalPatternNode::pass_through() const { return UnderlyingCall(call)->args.front(); }

const CallPatternNode* UnderlyingCall(const Pattern& pattern) {
  return pattern ? Unconstrained(pattern).As<CallPatternNode>() : nullptr;
}

Pattern Pattern::CallWith(std::vector<Pattern> args) const {
  Required(*this, "a call pattern's callee");
  for (const Pattern& arg : args) Required(arg, "a call pattern's argument");
  if (const auto* constrained = As<AttrPatternNode>();
      constrained != nullptr && IsConstrainedOp(constrained->pattern)) {
    return collage::HasAttr(constrained->pattern.CallWith(std::move(args)), constrained->attrs);
  }
  return Pattern(std::make_shared<CallPatternNode>(*this, std::move(args)));
}

Pattern Pattern::Optional() const { return IsOptional(*this); }
Pattern Pattern::HasAttr(Attrs attrs) const { return collage::HasAttr(*this, std::move(attrs)); }
Pattern Pattern::HasType(Type type) const { return collage::HasType(*this, std::move(type)); }
Pattern Pattern::HasShape(Shape shape) const { return collage::HasShape(*this, std::move(shape)); }
Pattern Pattern::HasDType(DType dtype) const { return collage::HasDType(*this, dtype); }
Pattern Pattern::GetItem(int index) const { return IsTupleGetItem(*this, index); }

Pattern Wildcard() { return Pattern(std::make_shared<WildcardPatternNode>()); }

Pattern IsOp(const std::string& name) {
  return Pattern(std::make_shared<OpPatternNode>(&OpRegistry::Global().Get(name)));
}

Pattern IsConstant() { return Pattern(std::make_shared<ConstantPatternNode>()); }

Pattern IsVar(std::string name) { return Pattern(std::make_shared<VarPatternNode>(std::move(name))); }

Pattern IsTuple(std::vector<Pattern> fields) {
  for (const Pattern& field : fields) Required(field, "a tuple pattern's field");
  return Pattern(std::make_shared<TuplePatternNode>(std::move(fields)));
}

Pattern IsTupleGetItem(Pattern tuple, int index) {
  Required(tuple, "a tuple projection pattern");
  if (index < kAnyTupleIndex) {
    throw Error("a tuple projection pattern needs an index >= 0 (or any), got " + std::to_string(index));
  }
  return Pattern(std::make_shared<TupleGetItemPatternNode>(std::move(tuple), index));
}

Pattern IsAlternative(Pattern left, Pattern right) {
  Required(left, "an alternative pattern");
  Required(right, "an alternative pattern");
  return Pattern(std::make_shared<AlternativePatternNode>(std::move(left), std::move(right)));
}

Pattern operator|(const Pattern& left, const Pattern& right) { return IsAlternative(left, right); }

Pattern IsOptional(Pattern call) {
  Required(call, "an optional pattern");
  const CallPatternNode* underlying = UnderlyingCall(call);
  if (underlying == nullptr || underlying->args.empty()) {
    throw Error("an optional pattern needs a call pattern with at least one argument (its pass-through), got " +
                std::string(underlying ? "a call pattern without arguments"
                                       : "a " + std::string(PatternKindName(Unconstrained(call).kind())) + " pattern"));
  }
  return Pattern(std::make_shared<OptionalPatternNode>(std::move(call)));
}

Pattern HasAttr(Pattern pattern, Attrs attrs) {
  Required(pattern, "an attribute constraint");
  return Pattern(std::make_shared<AttrPatternNode>(std::move(pattern), std::move(attrs)));
}

Pattern HasType(Pattern pattern, Type type) {
  Required(pattern, "a type constraint");
  if (!type) throw Error("a type constraint needs a type, got a null type");
  if (type->kind() == TypeKind::kFunc) {
    throw Error("a type constraint takes a tensor or tuple type, got the function type " + TypeToString(type));
  }
  return Pattern(std::make_shared<TypePatternNode>(std::move(pattern), std::move(type)));
}

Pattern HasShape(Pattern pattern, Shape shape) {
  Required(pattern, "a shape constraint");
  return Pattern(std::make_shared<ShapePatternNode>(std::move(pattern), std::move(shape)));
}

Pattern HasDType(Pattern pattern, DType dtype) {
  Required(pattern, "a dtype constraint");
  return Pattern(std::make_shared<DTypePatternNode>(std::move(pattern), dtype));
}

Pattern Dominates(Pattern parent, Pattern path, Pattern child) {
  Required(parent, "a dominator pattern's parent");
  Required(path, "a dominator pattern's path");
  Required(child, "a dominator pattern's child");
  return Pattern(std::make_shared<DominatorPatternNode>(std::move(parent), std::move(path), std::move(child)));
}

}  // namespace collage
