// Tensors exchanged with a compiled model: dense, row-major (C order), of one element type.
// A Tensor either borrows the caller's buffer (Borrow: nothing is copied; the caller keeps the
// buffer alive and unchanged while a Run uses it) or owns its own, shared between copies of the
// Tensor (outputs, Allocate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace collage::api {

enum class ElementType {
  kFloat32, kFloat16, kBFloat16, kInt8, kUInt8, kInt32, kInt64, kBool, kFloat64, kInt16, kUInt16, kUInt32, kUInt64
};

// "f32", "f16", "bf16", "i8", "u8", "i32", "i64", "bool", "f64", "i16", "u16", "u32", "u64": the
// names of the text format.
std::string_view ElementTypeName(ElementType type);
size_t ElementSize(ElementType type);

class Tensor {
 public:
  Tensor() = default;
  // Wraps `data`, which holds the elements of `shape` in C order.
  static Tensor Borrow(ElementType type, std::vector<int64_t> shape, void* data);
  // An owned, zero-filled buffer.
  static Tensor Allocate(ElementType type, std::vector<int64_t> shape);
  // Wraps a buffer whose lifetime `owner` holds.
  static Tensor Shared(ElementType type, std::vector<int64_t> shape, void* data, std::shared_ptr<const void> owner);

  bool defined() const { return data_ != nullptr; }
  ElementType element_type() const { return type_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t num_elements() const;
  size_t num_bytes() const { return static_cast<size_t>(num_elements()) * ElementSize(type_); }
  void* data() { return data_; }
  const void* data() const { return data_; }
  bool borrowed() const { return owner_ == nullptr; }
  // The elements in C order, converted to double (bool: 0 or 1).
  std::vector<double> ValuesAsDouble() const;
  // "Tensor[(1, 3, 224, 224), f32]", as the text format writes types.
  std::string TypeString() const;

 private:
  ElementType type_ = ElementType::kFloat32;
  std::vector<int64_t> shape_;
  void* data_ = nullptr;
  std::shared_ptr<const void> owner_;  // null when borrowed
};

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// What a model expects or returns: a name, an element type and a static shape.
struct TensorInfo {
  std::string name;
  ElementType element_type = ElementType::kFloat32;
  std::vector<int64_t> shape;
};

}  // namespace collage::api
