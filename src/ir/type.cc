#include "ir/type.h"

#include "support/hash.h"

namespace collage {

Type TensorType(DType dtype, Shape shape) {
  return std::make_shared<TensorTypeNode>(dtype, std::move(shape));
}

Type TupleType(std::vector<Type> fields) { return std::make_shared<TupleTypeNode>(std::move(fields)); }

Type FuncType(std::vector<Type> params, Type result) {
  return std::make_shared<FuncTypeNode>(std::move(params), std::move(result));
}

const TensorTypeNode* AsTensorType(const Type& type) {
  return type && type->kind() == TypeKind::kTensor ? static_cast<const TensorTypeNode*>(type.get())
                                                   : nullptr;
}

const TupleTypeNode* AsTupleType(const Type& type) {
  return type && type->kind() == TypeKind::kTuple ? static_cast<const TupleTypeNode*>(type.get())
                                                  : nullptr;
}

double TypeBytes(const Type& type) {
  if (const TensorTypeNode* tensor = AsTensorType(type)) {
    return static_cast<double>(NumElements(tensor->shape)) * static_cast<double>(DTypeSize(tensor->dtype));
  }
  double bytes = 0;
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    for (const Type& field : tuple->fields) bytes += TypeBytes(field);
  }
  return bytes;
}

const FuncTypeNode* AsFuncType(const Type& type) {
  return type && type->kind() == TypeKind::kFunc ? static_cast<const FuncTypeNode*>(type.get())
                                                 : nullptr;
}

namespace {

bool TypeListEqual(const std::vector<Type>& lhs, const std::vector<Type>& rhs) {
  if (lhs.size() != rhs.size()) return false;
  for (size_t i = 0; i < lhs.size(); ++i) {
    if (!TypeEqual(lhs[i], rhs[i])) return false;
  }
  return true;
}

}  // namespace

bool TypeEqual(const Type& lhs, const Type& rhs) {
  if (lhs == rhs) return true;
  if (!lhs || !rhs || lhs->kind() != rhs->kind()) return false;
  switch (lhs->kind()) {
    case TypeKind::kTensor: {
      const auto* a = AsTensorType(lhs);
      const auto* b = AsTensorType(rhs);
      return a->dtype == b->dtype && a->shape == b->shape;
    }
    case TypeKind::kTuple:
      return TypeListEqual(AsTupleType(lhs)->fields, AsTupleType(rhs)->fields);
    case TypeKind::kFunc: {
      const auto* a = AsFuncType(lhs);
      const auto* b = AsFuncType(rhs);
      return TypeListEqual(a->params, b->params) && TypeEqual(a->result, b->result);
    }
  }
  return false;
}

size_t TypeHash(const Type& type) {
  if (!type) return 0;
  size_t hash = HashValue(static_cast<int>(type->kind()));
  switch (type->kind()) {
    case TypeKind::kTensor: {
      const auto* tensor = AsTensorType(type);
      hash = HashCombine(hash, HashValue(static_cast<int>(tensor->dtype)));
      for (int64_t dim : tensor->shape) hash = HashCombine(hash, HashValue(dim));
      return hash;
    }
    case TypeKind::kTuple:
      for (const Type& field : AsTupleType(type)->fields) hash = HashCombine(hash, TypeHash(field));
      return hash;
    case TypeKind::kFunc: {
      const auto* func = AsFuncType(type);
      for (const Type& param : func->params) hash = HashCombine(hash, TypeHash(param));
      return HashCombine(hash, TypeHash(func->result));
    }
  }
  return hash;
}

std::string TypeToString(const Type& type) {
  if (!type) return "?";
  switch (type->kind()) {
    case TypeKind::kTensor: {
      const auto* tensor = AsTensorType(type);
      return "Tensor[" + ShapeToString(tensor->shape) + ", " + std::string(DTypeName(tensor->dtype)) +
             "]";
    }
    case TypeKind::kTuple: {
      std::string text = "(";
      const auto& fields = AsTupleType(type)->fields;
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) text += ", ";
        text += TypeToString(fields[i]);
      }
      if (fields.size() == 1) text += ",";
      return text + ")";
    }
    case TypeKind::kFunc: {
      const auto* func = AsFuncType(type);
      std::string text = "fn (";
      for (size_t i = 0; i < func->params.size(); ++i) {
        if (i > 0) text += ", ";
        text += TypeToString(func->params[i]);
      }
      return text + ") -> " + TypeToString(func->result);
    }
  }
  return "?";
}

}  // namespace collage
