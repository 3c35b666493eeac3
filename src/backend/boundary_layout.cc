#include "backend/boundary_layout.h"

#include <algorithm>
#include <unordered_map>

#include "ir/op_registry.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "support/error.h"

namespace collage {
namespace {

bool IsRank4Tensor(const Type& type) {
  const TensorTypeNode* tensor = AsTensorType(type);
  return tensor != nullptr && tensor->shape.size() == 4;
}

Type PhysicalType(const Type& type, Layout layout) {
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    std::vector<Type> fields;
    for (const Type& field : tuple->fields) fields.push_back(PhysicalType(field, layout));
    return TupleType(std::move(fields));
  }
  const TensorTypeNode* tensor = AsTensorType(type);
  Check(tensor != nullptr, "boundary layout: a parameter or result is neither a tensor nor a tuple");
  return TensorType(tensor->dtype, PhysicalShape(tensor->shape, layout));
}

void CollectShapes(const Type& type, Layout layout, std::vector<Shape>& shapes) {
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    for (const Type& field : tuple->fields) CollectShapes(field, layout, shapes);
    return;
  }
  shapes.push_back(PhysicalShape(AsTensorType(type)->shape, layout));
}

// `value` (of logical type `type`) as the physical buffers of `layout`.
Expr ToPhysical(const Expr& value, const Type& type, Layout layout) {
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    std::vector<Expr> fields;
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      fields.push_back(ToPhysical(MakeTupleGetItem(value, static_cast<int>(i)), tuple->fields[i], layout));
    }
    return MakeTuple(std::move(fields));
  }
  if (layout == Layout::kPlain || !IsRank4Tensor(type)) return value;
  return CallOp("transpose", {value}, Attrs{{"axes", kToChannelsLastAxes}});
}

// Replaces variables by expressions.
class SubstituteVars final : public ExprMutator {
 public:
  explicit SubstituteVars(std::unordered_map<const ExprNode*, Expr> replacements)
      : replacements_(std::move(replacements)) {}

 protected:
  Expr RewriteVar(const Var& pre, const Var& post) override {
    auto found = replacements_.find(pre.get());
    return found != replacements_.end() ? found->second : post;
  }

 private:
  std::unordered_map<const ExprNode*, Expr> replacements_;
};

}  // namespace

PartitionLayouts BoundaryLayoutsOf(const Function& function) { return BoundaryLayoutsOf(function->attrs); }

PartitionLayouts BoundaryLayoutsOf(const Attrs& attrs) {
  if (!attrs.Has(attr::kBoundaryLayout)) return {};
  const std::string& name = attrs.GetString(attr::kBoundaryLayout);
  const std::optional<PartitionLayouts> layouts = ParsePartitionLayouts(name);
  if (!layouts) {
    throw Error("unknown " + std::string(attr::kBoundaryLayout) + " '" + name + "' (expected one of " + LayoutNames() +
                ", or two of them as <parameters>><results>)");
  }
  return *layouts;
}

PartitionLayouts DeclaredBoundaryLayoutsOf(const Function& function, const std::string& backend,
                                           const std::vector<Layout>& declared,
                                           const std::vector<PartitionLayouts>& mixed) {
  const PartitionLayouts layouts = BoundaryLayoutsOf(function);
  const auto is_declared = [&](Layout layout) {
    return std::find(declared.begin(), declared.end(), layout) != declared.end();
  };
  const bool supported = is_declared(layouts.parameters) && is_declared(layouts.results) &&
                         (layouts.IsUniform() || std::find(mixed.begin(), mixed.end(), layouts) != mixed.end());
  if (!supported) throw Error(backend + ": boundary layout " + PartitionLayoutsName(layouts) + " is not supported");
  return layouts;
}

Function WithBoundaryLayouts(const Function& function, const PartitionLayouts& layouts) {
  Attrs attrs = function->attrs;
  attrs.Erase(attr::kBoundaryLayout);
  if (!layouts.IsPlain()) attrs.Set(attr::kBoundaryLayout, PartitionLayoutsName(layouts));
  const Function result = MakeFunction(function->params, function->body, std::move(attrs));
  if (function->checked_type()) result->set_checked_type(function->checked_type());
  return result;
}

std::vector<Shape> BoundaryParameterShapes(const Function& function) {
  const Layout layout = BoundaryLayoutsOf(function).parameters;
  std::vector<Shape> shapes;
  for (const Var& param : function->params) CollectShapes(param->checked_type(), layout, shapes);
  return shapes;
}

std::vector<Shape> BoundaryResultShapes(const Function& function) {
  std::vector<Shape> shapes;
  CollectShapes(function->body->checked_type(), BoundaryLayoutsOf(function).results, shapes);
  return shapes;
}

Function WithPlainBody(const Function& function) {
  const PartitionLayouts layouts = BoundaryLayoutsOf(function);
  if (layouts.IsPlain()) return function;
  for (Layout layout : {layouts.parameters, layouts.results}) {
    if (layout != Layout::kPlain && layout != Layout::kChannelsLast) {
      throw Error("boundary layout " + std::string(LayoutName(layout)) +
                  " is not supported by a plain body (only nhwc is)");
    }
  }
  const Layout layout = layouts.parameters;
  std::vector<Var> params;
  std::unordered_map<const ExprNode*, Expr> logical_of_param;
  for (const Var& param : function->params) {
    const Type& type = param->checked_type();
    Check(AsTupleType(type) == nullptr, "boundary layout: a partition function takes a tuple");
    const Var physical = MakeVar(param->name_hint, PhysicalType(type, layout));
    params.push_back(physical);
    if (layout != Layout::kPlain && IsRank4Tensor(type)) {
      logical_of_param[param.get()] = CallOp("transpose", {physical}, Attrs{{"axes", kFromChannelsLastAxes}});
    } else {
      logical_of_param[param.get()] = physical;
    }
  }
  const Expr logical_body = SubstituteVars(std::move(logical_of_param)).Mutate(function->body);
  const Expr body = ToPhysical(logical_body, function->body->checked_type(), layouts.results);
  Attrs attrs = function->attrs;
  attrs.Erase(attr::kBoundaryLayout);
  const Function result = MakeFunction(std::move(params), body, std::move(attrs));
  InferType(result);
  return result;
}

}  // namespace collage
