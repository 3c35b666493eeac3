#include "runtime/invoke_executable.h"

#include "backend/boundary_layout.h"
#include "ir/type_inference.h"
#include "support/error.h"
#include "support/layout_conversion.h"

namespace collage {
namespace {

void AppendTensorTypes(const Type& type, std::vector<const TensorTypeNode*>& types) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) {
    types.push_back(tensor);
    return;
  }
  const TupleTypeNode* tuple = AsTupleType(type);
  Check(tuple != nullptr, "expected a tensor or tuple type, got " + TypeToString(type));
  for (const Type& field : tuple->fields) AppendTensorTypes(field, types);
}

Value Rebuild(const Type& type, const std::vector<Tensor>& tensors, size_t& next) {
  if (AsTensorType(type)) {
    Check(next < tensors.size(), "Unflatten: too few tensors for " + TypeToString(type));
    return tensors[next++];
  }
  const TupleTypeNode* tuple = AsTupleType(type);
  Check(tuple != nullptr, "Unflatten: expected a tensor or tuple type, got " + TypeToString(type));
  std::vector<Value> fields;
  for (const Type& field : tuple->fields) fields.push_back(Rebuild(field, tensors, next));
  return Value::MakeTuple(std::move(fields));
}

}  // namespace

std::vector<const TensorTypeNode*> FlattenedTensorTypes(const Type& type) {
  std::vector<const TensorTypeNode*> types;
  AppendTensorTypes(type, types);
  return types;
}

std::vector<Tensor> AllocateFlattened(const Type& type) {
  std::vector<Tensor> tensors;
  for (const TensorTypeNode* tensor : FlattenedTensorTypes(type)) tensors.push_back(Tensor::Zeros(tensor->dtype, tensor->shape));
  return tensors;
}

std::vector<Tensor> AllocateResults(const Function& function) {
  const std::vector<Shape> shapes = BoundaryResultShapes(function);
  const std::vector<const TensorTypeNode*> types = FlattenedTensorTypes(function->body->checked_type());
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < types.size(); ++i) tensors.push_back(Tensor::Zeros(types[i]->dtype, shapes[i]));
  return tensors;
}

Value Unflatten(const Type& type, const std::vector<Tensor>& tensors) {
  size_t next = 0;
  Value value = Rebuild(type, tensors, next);
  Check(next == tensors.size(), "Unflatten: too many tensors for " + TypeToString(type));
  return value;
}

Value InvokeExecutable(Executable& executable, const Function& function, const std::vector<Value>& args) {
  if (!function->body->checked_type()) InferType(function);
  if (args.size() != function->params.size()) {
    throw Error("expected " + std::to_string(function->params.size()) + " arguments, got " +
                std::to_string(args.size()));
  }
  const PartitionLayouts layouts = BoundaryLayoutsOf(function);
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    const TensorTypeNode* expected = AsTensorType(function->params[i]->checked_type());
    const std::string& name = function->params[i]->name_hint;
    if (expected == nullptr || args[i].is_tuple()) throw Error("parameter %" + name + ": tuple values are not supported");
    const Tensor& tensor = args[i].tensor();
    if (tensor.dtype() != expected->dtype || tensor.shape() != expected->shape) {
      throw Error("parameter %" + name + ": expected " + TypeToString(function->params[i]->checked_type()) +
                  ", got " + TypeToString(TensorType(tensor.dtype(), tensor.shape())));
    }
    inputs.push_back(ConvertedLayout(tensor, Layout::kPlain, layouts.parameters, tensor.shape()));
  }
  std::vector<Tensor> outputs = AllocateResults(function);
  executable.Run(inputs, outputs);
  const std::vector<const TensorTypeNode*> result_types = FlattenedTensorTypes(function->body->checked_type());
  std::vector<Tensor> results;
  for (size_t i = 0; i < outputs.size(); ++i) {
    results.push_back(ConvertedLayout(outputs[i], layouts.results, Layout::kPlain, result_types[i]->shape));
  }
  return Unflatten(function->body->checked_type(), results);
}

}  // namespace collage
