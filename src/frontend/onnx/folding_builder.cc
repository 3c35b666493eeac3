#include "frontend/onnx/folding_builder.h"

#include <algorithm>
#include <limits>

#include "ir/type_inference.h"
#include "ir/op_registry.h"

namespace collage {
namespace {

constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

// The bytes a value of `type` occupies, saturating at kSaturated instead of overflowing.
int64_t ResultBytes(const Type& type) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) {
    int64_t bytes = static_cast<int64_t>(DTypeSize(tensor->dtype));
    for (int64_t dim : tensor->shape) {
      if (__builtin_mul_overflow(bytes, std::max<int64_t>(dim, 0), &bytes)) return kSaturated;
    }
    return bytes;
  }
  int64_t total = 0;
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    for (const Type& field : tuple->fields) {
      if (__builtin_add_overflow(total, ResultBytes(field), &total)) return kSaturated;
    }
  }
  return total;
}

}  // namespace

Expr FoldingBuilder::Call(const std::string& op_name, std::vector<Expr> args, const Attrs& attrs) {
  const Expr call = CallOp(op_name, std::move(args), attrs);
  const Type type = InferNodeType(call);
  const auto* call_node = As<CallNode>(call);
  const OpDef& op = *call_node->op();
  std::vector<Tensor> constant_args;
  for (const Expr& arg : call_node->args) {
    const Tensor* value = ConstantValue(arg);
    if (value == nullptr) return call;
    constant_args.push_back(*value);
  }
  if (!op.reference_kernel || ResultBytes(type) > max_folded_bytes_) return call;
  std::vector<Tensor> outputs = op.reference_kernel(constant_args, call_node->attrs, type);
  if (AsTensorType(type) != nullptr) {
    Check(outputs.size() == 1, op_name + ": reference kernel returned " + std::to_string(outputs.size()) + " outputs");
    return Constant(std::move(outputs[0]));
  }
  std::vector<Expr> fields;
  for (Tensor& output : outputs) fields.push_back(Constant(std::move(output)));
  return Tuple(std::move(fields));
}

Expr FoldingBuilder::Constant(Tensor value) {
  Expr constant = MakeConstant(std::move(value));
  InferNodeType(constant);
  return constant;
}

Var FoldingBuilder::Variable(const std::string& name, Type type) {
  Var var = MakeVar(name, std::move(type));
  InferNodeType(var);
  return var;
}

Expr FoldingBuilder::TupleItem(const Expr& tuple, int index) {
  if (const auto* literal = As<TupleNode>(tuple)) {
    Check(index >= 0 && index < static_cast<int>(literal->fields.size()),
          "tuple field " + std::to_string(index) + " out of range");
    return literal->fields[static_cast<size_t>(index)];
  }
  Expr item = MakeTupleGetItem(tuple, index);
  InferNodeType(item);
  return item;
}

Expr FoldingBuilder::Tuple(std::vector<Expr> fields) {
  Expr tuple = MakeTuple(std::move(fields));
  InferNodeType(tuple);
  return tuple;
}

const Tensor* ConstantValue(const Expr& expr) {
  const auto* constant = As<ConstantNode>(expr);
  return constant == nullptr ? nullptr : &constant->data;
}

const TensorTypeNode& TensorTypeOf(const Expr& expr) {
  const TensorTypeNode* type = AsTensorType(expr->checked_type());
  if (type == nullptr) {
    throw Error("expected a tensor, got " +
                (expr->checked_type() ? TypeToString(expr->checked_type()) : std::string("an untyped value")));
  }
  return *type;
}

}  // namespace collage
