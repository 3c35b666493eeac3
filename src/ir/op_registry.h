// The operator registry: for each op its arity, typed attribute schema with defaults,
// type relation (shape inference), FuseOps pattern kind and reference kernel.
//
// This is the registry's core, beside the IR that refers to OpDefs. The global registry
// (Global(), GetOp, CallOp) is defined by the op layer (op/all_ops.cc): ops are registered
// once, on first use of OpRegistry::Global(), by the group registration functions it lists.
// Registered OpDefs live for the whole program, so `const OpDef*` is a stable identity.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "ir/type.h"
#include "support/tensor.h"

namespace collage {

// FuseOps classification; a lower kind fuses into a higher one.
enum class OpPatternKind : int {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};
std::string_view OpPatternKindName(OpPatternKind kind);

struct AttrSpec {
  std::string name;
  AttrKind kind;
  std::optional<AttrValue> default_value;  // nullopt: the attribute is required
};

// Computes the result type from the argument types (already checked for arity) and the
// normalized attributes. Throws TypeError with a message that names the offending
// argument and dimension; the caller prefixes the op name and source location.
using TypeRelation = std::function<Type(const std::vector<Type>& arg_types, const Attrs& attrs)>;

// Computes the outputs from the inputs. `result_type` is the checked type of the call:
// a tensor type gives one output, a tuple type one output per field. Throws Error for
// dtypes the kernel does not implement.
using ReferenceKernel = std::function<std::vector<Tensor>(const std::vector<Tensor>& args, const Attrs& attrs,
                                                          const Type& result_type)>;

struct OpDef {
  std::string name;
  std::string description;
  std::vector<std::string> arg_names;  // names of the fixed arguments, for messages
  int min_args = 0;
  int max_args = 0;  // -1: variadic
  std::vector<AttrSpec> attrs;
  OpPatternKind pattern_kind = OpPatternKind::kOpaque;
  TypeRelation infer_type;
  ReferenceKernel reference_kernel;

  const AttrSpec* FindAttr(const std::string& attr_name) const;
};

// Fluent registration: OpRegistry::Global().Register("nn.relu").Args({"data"})...
class OpDefBuilder {
 public:
  explicit OpDefBuilder(OpDef* def) : def_(def) {}
  OpDefBuilder& Describe(std::string description);
  // Fixed arity with argument names.
  OpDefBuilder& Args(std::vector<std::string> names);
  // At least `min_args` arguments, no upper bound (e.g. concatenate).
  OpDefBuilder& VariadicArgs(int min_args, std::string name);
  OpDefBuilder& Attr(std::string name, AttrKind kind, std::optional<AttrValue> default_value = std::nullopt);
  OpDefBuilder& Pattern(OpPatternKind kind);
  OpDefBuilder& Relation(TypeRelation relation);
  OpDefBuilder& Kernel(ReferenceKernel kernel);

 private:
  OpDef* def_;
};

class OpRegistry {
 public:
  static OpRegistry& Global();

  OpDefBuilder Register(const std::string& name);
  const OpDef* Find(const std::string& name) const;
  // Throws Error("unknown op 'name'") when absent.
  const OpDef& Get(const std::string& name) const;
  // All ops, sorted by name.
  std::vector<const OpDef*> AllOps() const;
  // The shared OpNode of a registered op (throws for unknown ops).
  Op GetOpNode(const std::string& name) const;

 private:
  OpRegistry() = default;
  std::map<std::string, std::unique_ptr<OpDef>> ops_;
  std::map<const OpDef*, Op> op_nodes_;
};

// The shared OpNode for a registered op (throws for unknown ops).
Op GetOp(const std::string& name);

// Checks `attrs` against the op's schema: unknown names and wrong kinds are TypeErrors
// naming the op and attribute; missing attributes get their default (an int given for a
// float or a float list is converted). Returns the normalized attributes.
Attrs NormalizeAttrs(const OpDef& op, const Attrs& attrs);

// A call to a registered op with normalized attributes.
Call CallOp(const std::string& name, std::vector<Expr> args, const Attrs& attrs = {});

}  // namespace collage
