#include "runtime/invoke_executable.h"

#include "backend/boundary_layout.h"
#include "ir/type_inference.h"
#include "support/error.h"
#include "support/layout_conversion.h"

namespace collage {
namespace {

void AppendTensors(const Type& type, std::vector<Tensor>& tensors) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) {
    tensors.push_back(Tensor::Zeros(tensor->dtype, tensor->shape));
    return;
  }
  const TupleTypeNode* tuple = AsTupleType(type);
  Check(tuple != nullptr, "AllocateFlattened: expected a tensor or tuple type, got " + TypeToString(type));
  for (const Type& field : tuple->fields) AppendTensors(field, tensors);
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

std::vector<Tensor> AllocateFlattened(const Type& type) {
  std::vector<Tensor> tensors;
  AppendTensors(type, tensors);
  return tensors;
}

std::vector<Tensor> AllocateResults(const Function& function) {
  std::vector<Tensor> tensors = AllocateFlattened(function->body->checked_type());
  const std::vector<Shape> shapes = BoundaryResultShapes(function);
  for (size_t i = 0; i < tensors.size(); ++i) tensors[i] = tensors[i].Reshaped(shapes[i]);
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
  const Layout layout = BoundaryLayoutOf(function);
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
    inputs.push_back(ConvertedLayout(tensor, Layout::kPlain, layout, tensor.shape()));
  }
  std::vector<Tensor> outputs = AllocateResults(function);
  executable.Run(inputs, outputs);
  std::vector<Tensor> results;
  for (const Tensor& output : outputs) {
    results.push_back(ConvertedLayout(output, layout, Layout::kPlain, LogicalShape(output.shape(), layout)));
  }
  return Unflatten(function->body->checked_type(), results);
}

}  // namespace collage
