#include "backend/flat_partition.h"

#include <algorithm>
#include <unordered_map>

#include "backend/boundary_layout.h"
#include "backend/precision.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"

namespace collage {
namespace {

// The value ids an expression stands for: one for a tensor, the fields for a built tuple.
using ValueIds = std::vector<int>;
using Scope = std::unordered_map<const ExprNode*, ValueIds>;

class Flattener {
 public:
  explicit Flattener(std::string backend) : backend_(std::move(backend)) {}

  FlatPartition Run(const Function& function) {
    Scope scope;
    for (size_t i = 0; i < function->params.size(); ++i) {
      const Var& param = function->params[i];
      const TensorTypeNode* type = AsTensorType(param->checked_type());
      if (!type) Fail("parameter %" + param->name_hint + " is a tuple; partitions take tensors only");
      FlatValue value;
      value.source = FlatValue::Source::kParameter;
      value.dtype = type->dtype;
      value.shape = type->shape;
      value.parameter_index = static_cast<int>(i);
      const int id = Add(std::move(value));
      partition_.parameters.push_back(id);
      scope[param.get()] = {id};
    }
    partition_.outputs = Lower(function->body, scope);
    partition_.consumers.resize(partition_.values.size());
    for (size_t i = 0; i < partition_.calls.size(); ++i) {
      for (int input : partition_.calls[i].inputs) {
        ++partition_.values[input].uses;
        std::vector<int>& consumers = partition_.consumers[input];
        if (consumers.empty() || consumers.back() != static_cast<int>(i)) consumers.push_back(static_cast<int>(i));
      }
    }
    for (int output : partition_.outputs) ++partition_.values[output].uses;
    return std::move(partition_);
  }

 private:
  [[noreturn]] void Fail(const std::string& reason) const { throw Error(backend_ + ": " + reason); }

  int Add(FlatValue value) {
    partition_.values.push_back(std::move(value));
    return static_cast<int>(partition_.values.size()) - 1;
  }

  const TensorTypeNode& TensorResult(const ExprNode& node) const {
    const TensorTypeNode* type = AsTensorType(node.checked_type());
    if (!type) Fail(DescribeExpr(node) + " returns a tuple; only tensor-valued calls are supported");
    return *type;
  }

  ValueIds Lower(const Expr& root, Scope& scope) {
    for (const Expr& node : PostOrder(root, /*enter_functions=*/false)) {
      if (scope.count(node.get())) continue;
      if (const auto* constant = As<ConstantNode>(node)) {
        FlatValue value;
        value.source = FlatValue::Source::kConstant;
        value.dtype = constant->data.dtype();
        value.shape = constant->data.shape();
        value.constant = constant->data;
        scope[node.get()] = {Add(std::move(value))};
      } else if (const auto* tuple = As<TupleNode>(node)) {
        ValueIds ids;
        for (const Expr& field : tuple->fields) {
          const ValueIds& field_ids = scope.at(field.get());
          ids.insert(ids.end(), field_ids.begin(), field_ids.end());
        }
        scope[node.get()] = std::move(ids);
      } else if (const auto* projection = As<TupleGetItemNode>(node)) {
        const auto* built = As<TupleNode>(projection->tuple);
        if (!built) Fail("projection of " + DescribeExpr(*projection->tuple) + " (only built tuples can be projected)");
        scope[node.get()] = scope.at(built->fields.at(static_cast<size_t>(projection->index)).get());
      } else if (const auto* call = As<CallNode>(node)) {
        scope[node.get()] = LowerCall(*call, scope);
      } else if (As<VarNode>(node)) {
        Fail("free variable %" + As<VarNode>(node)->name_hint);
      }
      // Op nodes and nested functions are handled by their calls.
    }
    return scope.at(root.get());
  }

  ValueIds Arguments(const CallNode& call, const Scope& scope) const {
    ValueIds ids;
    for (const Expr& arg : call.args) {
      const ValueIds& arg_ids = scope.at(arg.get());
      ids.insert(ids.end(), arg_ids.begin(), arg_ids.end());
    }
    return ids;
  }

  ValueIds LowerCall(const CallNode& call, const Scope& scope) {
    if (call.op() != nullptr) {
      const TensorTypeNode& type = TensorResult(call);
      FlatCall flat;
      flat.call = &call;
      flat.op = As<OpNode>(call.callee)->name();
      flat.inputs = Arguments(call, scope);
      FlatValue value;
      value.dtype = type.dtype;
      value.shape = type.shape;
      value.call_index = static_cast<int>(partition_.calls.size());
      flat.output = Add(std::move(value));
      partition_.calls.push_back(std::move(flat));
      return {partition_.calls.back().output};
    }
    const auto* function = As<FunctionNode>(call.callee);
    if (!function || !function->attrs.Has(attr::kComposite)) {
      Fail("call to " + DescribeExpr(*call.callee) + " (only op calls and Composite functions are supported)");
    }
    // Inline the composite: its parameters stand for the call's arguments.
    Scope inner;
    for (size_t i = 0; i < function->params.size(); ++i) {
      const ValueIds& arg_ids = scope.at(call.args.at(i).get());
      if (arg_ids.size() != 1) Fail("a tuple argument to composite " + function->attrs.GetString(attr::kComposite));
      inner[function->params[i].get()] = arg_ids;
    }
    return Lower(function->body, inner);
  }

  std::string backend_;
  FlatPartition partition_;
};

}  // namespace

bool FlatPartition::IsOutput(int id) const { return std::find(outputs.begin(), outputs.end(), id) != outputs.end(); }

FlatPartition FlattenPartition(const Function& function, const std::string& backend,
                               const std::vector<Layout>& layouts, const std::vector<PartitionLayouts>& mixed,
                               const std::vector<DType>& precisions) {
  if (!function->body->checked_type()) InferType(function);
  const PartitionLayouts boundary_layouts = DeclaredBoundaryLayoutsOf(function, backend, layouts, mixed);
  FlatPartition partition = Flattener(backend).Run(function);
  partition.boundary_layouts = boundary_layouts;
  partition.precision = PrecisionOf(function->attrs);
  if (partition.precision != DType::kF32) {
    if (std::find(precisions.begin(), precisions.end(), partition.precision) == precisions.end()) {
      throw Error(backend + ": precision " + std::string(DTypeName(partition.precision)) + " is not supported");
    }
    partition.parameter_ranges = ParameterRangesOf(function);
  }
  return partition;
}

}  // namespace collage
