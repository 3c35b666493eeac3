// Types of IR expressions: tensors, tuples and functions. Types are immutable and
// shared; compare them with TypeEqual, not pointer identity.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/dtype.h"
#include "support/shape.h"

namespace collage {

enum class TypeKind { kTensor, kTuple, kFunc };

class TypeNode;
using Type = std::shared_ptr<const TypeNode>;

class TypeNode {
 public:
  virtual ~TypeNode() = default;
  TypeKind kind() const { return kind_; }

 protected:
  explicit TypeNode(TypeKind kind) : kind_(kind) {}

 private:
  TypeKind kind_;
};

class TensorTypeNode final : public TypeNode {
 public:
  TensorTypeNode(DType dtype, Shape shape)
      : TypeNode(TypeKind::kTensor), dtype(dtype), shape(std::move(shape)) {}
  const DType dtype;
  const Shape shape;
};

class TupleTypeNode final : public TypeNode {
 public:
  explicit TupleTypeNode(std::vector<Type> fields)
      : TypeNode(TypeKind::kTuple), fields(std::move(fields)) {}
  const std::vector<Type> fields;
};

class FuncTypeNode final : public TypeNode {
 public:
  FuncTypeNode(std::vector<Type> params, Type result)
      : TypeNode(TypeKind::kFunc), params(std::move(params)), result(std::move(result)) {}
  const std::vector<Type> params;
  const Type result;
};

// Throws TypeError when the tensor's size in bytes overflows int64 (CheckedNumBytes).
Type TensorType(DType dtype, Shape shape);
Type TupleType(std::vector<Type> fields);
Type FuncType(std::vector<Type> params, Type result);

// Downcasts; nullptr when the type is of another kind (or null).
const TensorTypeNode* AsTensorType(const Type& type);
const TupleTypeNode* AsTupleType(const Type& type);
const FuncTypeNode* AsFuncType(const Type& type);

// The bytes of a tensor type's data, summed over a tuple type's fields; 0 for other types.
double TypeBytes(const Type& type);

bool TypeEqual(const Type& lhs, const Type& rhs);
size_t TypeHash(const Type& type);
// Text-format spelling: "Tensor[(1, 3), f32]", "(Tensor[...], Tensor[...])", "fn (...) -> ...".
std::string TypeToString(const Type& type);

}  // namespace collage
