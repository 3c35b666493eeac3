// A run-time value: a tensor, or a tuple of values (for tuple-typed expressions).
#pragma once

#include <vector>

#include "support/tensor.h"

namespace collage {

class Value {
 public:
  Value() = default;
  Value(Tensor tensor) : tensor_(std::move(tensor)) {}  // NOLINT: implicit by design
  static Value MakeTuple(std::vector<Value> fields) {
    Value value;
    value.is_tuple_ = true;
    value.fields_ = std::move(fields);
    return value;
  }

  bool is_tuple() const { return is_tuple_; }
  // Throws Error when the value is a tuple.
  const Tensor& tensor() const {
    Check(!is_tuple_, "expected a tensor value, got a tuple");
    return tensor_;
  }
  // Throws Error when the value is a tensor.
  const std::vector<Value>& fields() const {
    Check(is_tuple_, "expected a tuple value, got a tensor");
    return fields_;
  }
  // The tensors of the value in order, tuples flattened depth-first.
  std::vector<Tensor> Flatten() const {
    if (!is_tuple_) return {tensor_};
    std::vector<Tensor> flat;
    for (const Value& field : fields_) {
      for (Tensor& tensor : field.Flatten()) flat.push_back(std::move(tensor));
    }
    return flat;
  }

 private:
  bool is_tuple_ = false;
  Tensor tensor_;
  std::vector<Value> fields_;
};

}  // namespace collage
