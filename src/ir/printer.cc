// Prints functions in the text format of docs/TEXT_FORMAT.md. One DefinitionPrinter prints one
// `def`: it names variables uniquely across the whole definition (nested functions included),
// numbers bindings in print order, and lists each scope's nodes with PostOrder, so printing
// never recurses on graph depth (only on the nesting depth of functions).
#include "ir/printer.h"

#include <charconv>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "ir/visitor.h"
#include "ir/op_registry.h"

namespace collage {
namespace {

bool IsAllDigits(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A name that needs no quotes after % or @.
bool IsPlainName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

// An attribute name that lexes as one bare identifier.
bool IsPlainAttrName(std::string_view name) { return IsPlainName(name) && !(name[0] >= '0' && name[0] <= '9'); }

std::string Quoted(const std::string& text) { return AttrValueToString(AttrValue(text)); }

std::string SigilName(char sigil, const std::string& name) { return sigil + (IsPlainName(name) ? name : Quoted(name)); }

// Shortest text that parses back to the same float or double; always has a '.' or an exponent.
template <typename Floating>
std::string FloatToText(Floating value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string ElementToText(const Tensor& data, int64_t index) {
  // f16 and bf16 values are exactly representable as floats, so the float text round-trips.
  if (data.dtype() == DType::kF64) return FloatToText(data.GetAsDouble(index));
  if (IsFloatingPoint(data.dtype())) return FloatToText(static_cast<float>(data.GetAsDouble(index)));
  if (data.dtype() == DType::kU64) return std::to_string(data.data<uint64_t>()[index]);
  return std::to_string(data.GetAsInt64(index));
}

std::string TensorTypeText(const Tensor& data) { return TypeToString(TensorType(data.dtype(), data.shape())); }

std::string AttrText(const std::string& name, const AttrValue& value) {
  return (IsPlainAttrName(name) ? name : Quoted(name)) + "=" + AttrValueToString(value);
}

std::string JoinAttrs(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

// "name=value, ..." in name order.
std::string AttrsText(const Attrs& attrs) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : attrs.values()) parts.push_back(AttrText(name, value));
  return JoinAttrs(parts);
}

// The attributes of an op call that differ from the op's defaults, in the op's declaration
// order; attributes outside the schema follow in name order.
std::string OpAttrsText(const OpDef& op, const Attrs& attrs) {
  std::vector<std::string> parts;
  for (const AttrSpec& spec : op.attrs) {
    if (!attrs.Has(spec.name)) continue;
    const AttrValue& value = attrs.Get(spec.name);
    if (!spec.default_value || *spec.default_value != value) parts.push_back(AttrText(spec.name, value));
  }
  for (const auto& [name, value] : attrs.values()) {
    if (op.FindAttr(name) == nullptr) parts.push_back(AttrText(name, value));
  }
  return JoinAttrs(parts);
}

class DefinitionPrinter {
 public:
  explicit DefinitionPrinter(const PrintOptions& options, int64_t* next_meta_index)
      : options_(options), next_meta_index_(next_meta_index) {}

  std::string PrintDefinition(const Function& function, const std::string& name) {
    out_ = "def " + SigilName('@', name) + Signature(*function) + " {\n";
    PrintScope(function, function->body, 1);
    out_ += "}\n";
    return std::move(out_);
  }

  std::string PrintExpression(const Expr& expr) {
    if (const auto* function = As<FunctionNode>(expr)) {
      out_ = "fn " + Signature(*function) + " {\n";
      PrintScope(expr, function->body, 1);
      out_ += "}\n";
    } else {
      PrintScope(expr, expr, 0);
    }
    return std::move(out_);
  }

 private:
  // Prints the bindings of the nodes of `root`'s scope, then `result` on the last line. A nested
  // function depends on nothing in the scope (functions are closed), so it is printed just
  // before its first user rather than at its post-order position.
  void PrintScope(const Expr& root, const Expr& result, int depth) {
    scopes_.emplace_back();
    const std::string indent(static_cast<size_t>(depth) * 2, ' ');
    auto print_function_operands = [&](const ExprNode& user) {
      ForEachChild(user, [&](const Expr& child) {
        if (child->kind() == ExprKind::kFunction && !scopes_.back().count(child.get())) {
          PrintFunctionBinding(child, indent, depth);
        }
      });
    };
    for (const Expr& node : PostOrder(root, /*enter_functions=*/false)) {
      const ExprKind kind = node->kind();
      if (kind == ExprKind::kVar || kind == ExprKind::kOp || kind == ExprKind::kFunction) continue;
      print_function_operands(*node);
      std::string value = ValueText(*node);
      const int64_t number = Bind(node);
      // Appended piece by piece: a model's every binding passes here.
      out_ += indent;
      out_ += '%';
      out_ += std::to_string(number);
      out_ += " = ";
      out_ += value;
      AppendTypeSuffix(*node);
      out_ += '\n';
    }
    if (result->kind() == ExprKind::kFunction && !scopes_.back().count(result.get())) {
      PrintFunctionBinding(result, indent, depth);
    }
    out_ += indent + Ref(result) + "\n";
    scopes_.pop_back();
  }

  void PrintFunctionBinding(const Expr& node, const std::string& indent, int depth) {
    const auto& function = static_cast<const FunctionNode&>(*node);
    const int64_t number = Bind(node);
    out_ += indent + "%" + std::to_string(number) + " = fn " + Signature(function) + " {\n";
    PrintScope(node, function.body, depth + 1);
    out_ += indent + "}\n";
  }

  int64_t Bind(const Expr& node) {
    const int64_t number = next_binding_++;
    scopes_.back()[node.get()] = number;
    return number;
  }

  const std::string& VarName(const VarNode& var) {
    auto it = var_names_.find(&var);
    if (it != var_names_.end()) return it->second;
    const std::string base = var.name_hint.empty() ? "v" : var.name_hint;
    std::string name = base;
    // All-digit names are reserved for bindings. Names are never released, so the smallest
    // free suffix of a base only grows: the search resumes where the last one for it ended
    // (thousands of partition functions all have a parameter p0).
    int& suffix = next_suffix_[base];
    if (suffix > 0) name = base + "_" + std::to_string(suffix);
    for (; IsAllDigits(name) || !used_names_.insert(name).second; name = base + "_" + std::to_string(suffix)) ++suffix;
    return var_names_.emplace(&var, std::move(name)).first->second;
  }

  std::string Ref(const Expr& node) {
    if (const auto* var = As<VarNode>(node)) return SigilName('%', VarName(*var));
    if (const auto* op = As<OpNode>(node)) return op->name();
    auto it = scopes_.back().find(node.get());
    if (it != scopes_.back().end()) return "%" + std::to_string(it->second);
    return "%<unbound " + DescribeExpr(*node) + ">";
  }

  std::string RefList(const std::vector<Expr>& nodes) {
    std::string text;
    for (const Expr& node : nodes) text += (text.empty() ? "" : ", ") + Ref(node);
    return text;
  }

  // "(%x: T, ...) -> R attrs(k=v)"
  std::string Signature(const FunctionNode& function) {
    std::string text = "(";
    for (size_t i = 0; i < function.params.size(); ++i) {
      const Var& param = function.params[i];
      if (i > 0) text += ", ";
      text += SigilName('%', VarName(*param));
      if (param->type_annotation) text += ": " + TypeToString(param->type_annotation);
    }
    text += ")";
    if (options_.show_types && function.body->checked_type()) {
      text += " -> " + TypeToString(function.body->checked_type());
    }
    if (!function.attrs.empty()) {
      text += " attrs(" + AttrsText(function.attrs) + ")";
    }
    return text;
  }

  std::string ValueText(const ExprNode& node) {
    switch (node.kind()) {
      case ExprKind::kConstant: return ConstantText(static_cast<const ConstantNode&>(node).data);
      case ExprKind::kCall: return CallText(static_cast<const CallNode&>(node));
      case ExprKind::kTuple: {
        const auto& fields = static_cast<const TupleNode&>(node).fields;
        return "(" + RefList(fields) + (fields.size() == 1 ? ",)" : ")");
      }
      case ExprKind::kTupleGetItem: {
        const auto& item = static_cast<const TupleGetItemNode&>(node);
        return Ref(item.tuple) + "." + std::to_string(item.index);
      }
      default: return DescribeExpr(node);
    }
  }

  std::string CallText(const CallNode& call) {
    std::string text = Ref(call.callee) + "(" + RefList(call.args);
    const OpDef* op = call.op();
    const std::string attrs = op != nullptr ? OpAttrsText(*op, call.attrs) : AttrsText(call.attrs);
    if (!attrs.empty()) text += (call.args.empty() ? "" : ", ") + attrs;
    return text + ")";
  }

  std::string ConstantText(const Tensor& data) {
    if (data.NumElements() > options_.max_inline_constant_elements) {
      if (options_.meta_table != nullptr) options_.meta_table->push_back(data);
      return "constant(meta[" + std::to_string((*next_meta_index_)++) + "], " + TensorTypeText(data) + ")";
    }
    std::string text = "constant([";
    for (int64_t i = 0; i < data.NumElements(); ++i) {
      if (i > 0) text += ", ";
      text += ElementToText(data, i);
    }
    return text + "], " + TensorTypeText(data) + ")";
  }

  // " : T" after a call or projection when types are shown.
  void AppendTypeSuffix(const ExprNode& node) {
    const bool typed_kind = node.kind() == ExprKind::kCall || node.kind() == ExprKind::kTupleGetItem;
    if (!options_.show_types || !typed_kind || !node.checked_type()) return;
    out_ += " : ";
    out_ += TypeToString(node.checked_type());
  }

  const PrintOptions& options_;
  int64_t* next_meta_index_;
  std::string out_;
  int64_t next_binding_ = 0;
  std::unordered_set<std::string> used_names_;
  std::unordered_map<std::string, int> next_suffix_;  // per name base: where the search for a free suffix resumes
  std::unordered_map<const VarNode*, std::string> var_names_;
  // Per open function scope: node -> binding number. Functions are closed, so a reference
  // resolves in the innermost scope only.
  std::vector<std::unordered_map<const ExprNode*, int64_t>> scopes_;
};

int64_t FirstMetaIndex(const PrintOptions& options) {
  return options.meta_table != nullptr ? static_cast<int64_t>(options.meta_table->size()) : 0;
}

}  // namespace

std::string PrintModule(const Module& module, const PrintOptions& options) {
  int64_t next_meta_index = FirstMetaIndex(options);
  std::string text;
  for (const auto& [name, function] : module.functions()) {
    if (!text.empty()) text += "\n";
    text += DefinitionPrinter(options, &next_meta_index).PrintDefinition(function, name);
  }
  return text;
}

std::string PrintFunction(const Function& function, const std::string& name, const PrintOptions& options) {
  int64_t next_meta_index = FirstMetaIndex(options);
  return DefinitionPrinter(options, &next_meta_index).PrintDefinition(function, name);
}

std::string PrintExpr(const Expr& expr, const PrintOptions& options) {
  int64_t next_meta_index = FirstMetaIndex(options);
  return DefinitionPrinter(options, &next_meta_index).PrintExpression(expr);
}

}  // namespace collage
