#include "pattern/pattern_printer.h"

#include "ir/op_registry.h"

namespace collage {
namespace {

bool IsPlainName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string Quoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string Print(const Pattern& pattern);

// A pattern in front of a postfix operator: alternatives need parentheses.
std::string PrintOperand(const Pattern& pattern) {
  return pattern.kind() == PatternKind::kAlternative ? "(" + Print(pattern) + ")" : Print(pattern);
}

std::string PrintList(const std::vector<Pattern>& patterns) {
  std::string text;
  for (size_t i = 0; i < patterns.size(); ++i) {
    if (i > 0) text += ", ";
    text += Print(patterns[i]);
  }
  return text;
}

std::string Print(const Pattern& pattern) {
  Check(static_cast<bool>(pattern), "cannot print a null pattern");
  switch (pattern.kind()) {
    case PatternKind::kWildcard: return "*";
    case PatternKind::kOp: return pattern.As<OpPatternNode>()->name();
    case PatternKind::kCall: {
      const auto* call = pattern.As<CallPatternNode>();
      return PrintOperand(call->callee) + "(" + PrintList(call->args) + ")";
    }
    case PatternKind::kConstant: return "const";
    case PatternKind::kVar: {
      const std::string& name = pattern.As<VarPatternNode>()->name;
      if (name.empty()) return "var";
      return "%" + (IsPlainName(name) ? name : Quoted(name));
    }
    case PatternKind::kTuple: {
      const auto& fields = pattern.As<TuplePatternNode>()->fields;
      return "(" + PrintList(fields) + (fields.size() == 1 ? ",)" : ")");
    }
    case PatternKind::kTupleGetItem: {
      const auto* projection = pattern.As<TupleGetItemPatternNode>();
      return PrintOperand(projection->tuple) + "." +
             (projection->index == kAnyTupleIndex ? "*" : std::to_string(projection->index));
    }
    case PatternKind::kAlternative: {
      const auto* alternative = pattern.As<AlternativePatternNode>();
      return Print(alternative->left) + " | " + PrintOperand(alternative->right);
    }
    case PatternKind::kOptional: return PrintOperand(pattern.As<OptionalPatternNode>()->call) + "?";
    case PatternKind::kAttr: {
      const auto* constraint = pattern.As<AttrPatternNode>();
      const std::string attrs = "{" + constraint->attrs.ToString() + "}";
      const auto* call = constraint->pattern.As<CallPatternNode>();
      if (call != nullptr && call->callee.kind() == PatternKind::kOp) {
        return PrintOperand(call->callee) + attrs + "(" + PrintList(call->args) + ")";
      }
      return PrintOperand(constraint->pattern) + attrs;
    }
    case PatternKind::kType: {
      const auto* constraint = pattern.As<TypePatternNode>();
      return PrintOperand(constraint->pattern) + ":" + TypeToString(constraint->type);
    }
    case PatternKind::kShape: {
      const auto* constraint = pattern.As<ShapePatternNode>();
      return PrintOperand(constraint->pattern) + ":" + ShapeToString(constraint->shape);
    }
    case PatternKind::kDType: {
      const auto* constraint = pattern.As<DTypePatternNode>();
      return PrintOperand(constraint->pattern) + ":" + std::string(DTypeName(constraint->dtype));
    }
    case PatternKind::kDominator: {
      const auto* dominator = pattern.As<DominatorPatternNode>();
      return "dominates(" + PrintList({dominator->parent, dominator->path, dominator->child}) + ")";
    }
  }
  return "?";
}

}  // namespace

std::string PatternToString(const Pattern& pattern) { return Print(pattern); }

std::string PatternTableToString(const std::vector<LabelledPattern>& table) {
  std::string text;
  for (const LabelledPattern& entry : table) text += entry.label + " := " + PatternToString(entry.pattern) + "\n";
  return text;
}

}  // namespace collage
