#include "ir/op_registry.h"

namespace collage {

std::string_view OpPatternKindName(OpPatternKind kind) {
  switch (kind) {
    case OpPatternKind::kElemWise: return "ElemWise";
    case OpPatternKind::kBroadcast: return "Broadcast";
    case OpPatternKind::kInjective: return "Injective";
    case OpPatternKind::kCommReduce: return "CommReduce";
    case OpPatternKind::kOutEWiseFusable: return "OutEWiseFusable";
    case OpPatternKind::kTuple: return "Tuple";
    case OpPatternKind::kOpaque: return "Opaque";
  }
  return "?";
}

const AttrSpec* OpDef::FindAttr(const std::string& attr_name) const {
  for (const AttrSpec& spec : attrs) {
    if (spec.name == attr_name) return &spec;
  }
  return nullptr;
}

OpDefBuilder& OpDefBuilder::Describe(std::string description) {
  def_->description = std::move(description);
  return *this;
}

OpDefBuilder& OpDefBuilder::Args(std::vector<std::string> names) {
  def_->min_args = def_->max_args = static_cast<int>(names.size());
  def_->arg_names = std::move(names);
  return *this;
}

OpDefBuilder& OpDefBuilder::VariadicArgs(int min_args, std::string name) {
  def_->min_args = min_args;
  def_->max_args = -1;
  def_->arg_names = {std::move(name)};
  return *this;
}

OpDefBuilder& OpDefBuilder::Attr(std::string name, AttrKind kind, std::optional<AttrValue> default_value) {
  if (default_value) Check(KindOf(*default_value) == kind, def_->name + ": default of '" + name + "' has the wrong kind");
  def_->attrs.push_back(AttrSpec{std::move(name), kind, std::move(default_value)});
  return *this;
}

OpDefBuilder& OpDefBuilder::Pattern(OpPatternKind kind) {
  def_->pattern_kind = kind;
  return *this;
}

OpDefBuilder& OpDefBuilder::Relation(TypeRelation relation) {
  def_->infer_type = std::move(relation);
  return *this;
}

OpDefBuilder& OpDefBuilder::Kernel(ReferenceKernel kernel) {
  def_->reference_kernel = std::move(kernel);
  return *this;
}

OpDefBuilder OpRegistry::Register(const std::string& name) {
  Check(ops_.count(name) == 0, "op '" + name + "' registered twice");
  auto def = std::make_unique<OpDef>();
  def->name = name;
  OpDef* raw = def.get();
  ops_.emplace(name, std::move(def));
  op_nodes_.emplace(raw, std::make_shared<OpNode>(raw));
  return OpDefBuilder(raw);
}

const OpDef* OpRegistry::Find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

const OpDef& OpRegistry::Get(const std::string& name) const {
  const OpDef* def = Find(name);
  if (def == nullptr) throw Error("unknown op '" + name + "'");
  return *def;
}

std::vector<const OpDef*> OpRegistry::AllOps() const {
  std::vector<const OpDef*> all;
  for (const auto& [name, def] : ops_) all.push_back(def.get());
  return all;
}

Op OpRegistry::GetOpNode(const std::string& name) const { return op_nodes_.at(&Get(name)); }

namespace {

std::string AttrNames(const OpDef& op) {
  std::string names;
  for (const AttrSpec& spec : op.attrs) names += (names.empty() ? "" : ", ") + spec.name;
  return names.empty() ? "none" : names;
}

// Converts `value` to `kind` where that loses nothing (int -> float, ints -> floats).
std::optional<AttrValue> ConvertAttr(const AttrValue& value, AttrKind kind) {
  if (KindOf(value) == kind) return value;
  if (kind == AttrKind::kFloat && KindOf(value) == AttrKind::kInt) {
    return static_cast<double>(std::get<int64_t>(value));
  }
  if (kind == AttrKind::kFloats && KindOf(value) == AttrKind::kInts) {
    const auto& ints = std::get<std::vector<int64_t>>(value);
    return std::vector<double>(ints.begin(), ints.end());
  }
  if (kind == AttrKind::kInts && KindOf(value) == AttrKind::kFloats && std::get<std::vector<double>>(value).empty()) {
    return std::vector<int64_t>{};
  }
  return std::nullopt;
}

}  // namespace

Attrs NormalizeAttrs(const OpDef& op, const Attrs& attrs) {
  Attrs normalized;
  for (const auto& [name, value] : attrs.values()) {
    const AttrSpec* spec = op.FindAttr(name);
    if (spec == nullptr) {
      throw TypeError(op.name + ": unknown attribute '" + name + "' (expected one of: " + AttrNames(op) + ")");
    }
    std::optional<AttrValue> converted = ConvertAttr(value, spec->kind);
    if (!converted) {
      throw TypeError(op.name + ": attribute '" + name + "' must be of kind " + std::string(AttrKindName(spec->kind)) +
                      ", got " + AttrValueToString(value));
    }
    normalized.Set(name, std::move(*converted));
  }
  for (const AttrSpec& spec : op.attrs) {
    if (normalized.Has(spec.name)) continue;
    if (!spec.default_value) throw TypeError(op.name + ": missing required attribute '" + spec.name + "'");
    normalized.Set(spec.name, *spec.default_value);
  }
  return normalized;
}

}  // namespace collage
