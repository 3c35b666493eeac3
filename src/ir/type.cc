#include "ir/type.h"

#include <string_view>

#include "support/hash.h"

namespace collage {

Type TensorType(DType dtype, Shape shape) {
  CheckedNumBytes(shape, static_cast<int64_t>(DTypeSize(dtype)));
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
  // Iterative, as types nest as deep as a program's chain of bindings makes them. The pieces
  // still to print, the next one last: a type, or literal text where `type` is null.
  struct Piece {
    const Type* type;
    std::string_view text;
  };
  std::vector<Piece> pending = {{&type, {}}};
  // Pushes `types` separated by ", ", so that the first is printed first.
  auto push_list = [&pending](const std::vector<Type>& types) {
    for (size_t i = types.size(); i-- > 0;) {
      pending.push_back({&types[i], {}});
      if (i > 0) pending.push_back({nullptr, ", "});
    }
  };
  std::string text;
  while (!pending.empty()) {
    const Piece piece = pending.back();
    pending.pop_back();
    if (piece.type == nullptr) {
      text += piece.text;
      continue;
    }
    const Type& next = *piece.type;
    if (!next) {
      text += "?";
      continue;
    }
    switch (next->kind()) {
      case TypeKind::kTensor: {
        const auto* tensor = AsTensorType(next);
        text += "Tensor[" + ShapeToString(tensor->shape) + ", " + std::string(DTypeName(tensor->dtype)) + "]";
        break;
      }
      case TypeKind::kTuple: {
        const auto& fields = AsTupleType(next)->fields;
        text += "(";
        pending.push_back({nullptr, fields.size() == 1 ? ",)" : ")"});
        push_list(fields);
        break;
      }
      case TypeKind::kFunc: {
        const auto* func = AsFuncType(next);
        text += "fn (";
        pending.push_back({&func->result, {}});
        pending.push_back({nullptr, ") -> "});
        push_list(func->params);
        break;
      }
    }
  }
  return text;
}

}  // namespace collage
