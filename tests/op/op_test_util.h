// Helpers for the op tests: evaluate one op call directly through its OpDef (type relation
// and reference kernel, no interpreter), compare results with hand-computed values, and
// collect the TypeError that InferType reports for an ill-typed call (so the op-name prefix
// is part of what the tests check).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "runtime/compare.h"
#include "support/tensor.h"

namespace collage::op_test {

inline Tensor F32(const std::vector<float>& values, Shape shape) { return Tensor::FromVector(values, std::move(shape)); }
inline Tensor I32(const std::vector<int32_t>& values, Shape shape) {
  return Tensor::FromVector(values, std::move(shape));
}
inline Tensor I64(const std::vector<int64_t>& values, Shape shape) {
  return Tensor::FromVector(values, std::move(shape));
}
inline Tensor Bool(const std::vector<bool>& values, Shape shape) { return Tensor::FromVector(values, std::move(shape)); }

// The result type of `op` on arguments of the given types, from its type relation.
inline Type InferOpType(const std::string& op, const std::vector<Type>& arg_types, const Attrs& attrs = {}) {
  const OpDef& def = OpRegistry::Global().Get(op);
  return def.infer_type(arg_types, NormalizeAttrs(def, attrs));
}

// Runs `op` on `args`: infers the result type from the argument types, then runs the kernel.
inline std::vector<Tensor> EvaluateOp(const std::string& op, const std::vector<Tensor>& args, const Attrs& attrs = {}) {
  const OpDef& def = OpRegistry::Global().Get(op);
  const Attrs normalized = NormalizeAttrs(def, attrs);
  std::vector<Type> arg_types;
  for (const Tensor& arg : args) arg_types.push_back(TensorType(arg.dtype(), arg.shape()));
  return def.reference_kernel(args, normalized, def.infer_type(arg_types, normalized));
}

// EvaluateOp for ops with one tensor result.
inline Tensor EvaluateOpToTensor(const std::string& op, const std::vector<Tensor>& args, const Attrs& attrs = {}) {
  std::vector<Tensor> outputs = EvaluateOp(op, args, attrs);
  EXPECT_EQ(outputs.size(), 1u) << op;
  return outputs.empty() ? Tensor() : outputs[0];
}

// The message of the TypeError that InferType throws for a function whose body is `op`
// applied to parameters of the given types; empty (and a test failure) when none is thrown.
inline std::string InferTypeError(const std::string& op, const std::vector<Type>& arg_types, const Attrs& attrs = {}) {
  try {
    std::vector<Var> params;
    std::vector<Expr> args;
    for (size_t i = 0; i < arg_types.size(); ++i) {
      params.push_back(MakeVar("p" + std::to_string(i), arg_types[i]));
      args.push_back(params.back());
    }
    InferType(MakeFunction(params, CallOp(op, args, attrs)));
  } catch (const TypeError& error) {
    return error.what();
  }
  ADD_FAILURE() << op << ": expected a TypeError";
  return "";
}

// Success when `message` contains every one of `parts`.
inline ::testing::AssertionResult MessageHas(const std::string& message, const std::vector<std::string>& parts) {
  for (const std::string& part : parts) {
    if (message.find(part) == std::string::npos) {
      return ::testing::AssertionFailure() << "message \"" << message << "\" lacks \"" << part << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

// Success when `actual` has the dtype and shape and its elements equal `expected` by
// CompareValues' rule: floating elements within `relative` times the largest |expected| (NaN
// matches NaN, infinities match exactly), others exactly.
inline ::testing::AssertionResult TensorIs(const Tensor& actual, DType dtype, const Shape& shape,
                                           const std::vector<double>& expected, double relative = 1e-6) {
  if (!actual.defined()) return ::testing::AssertionFailure() << "no tensor";
  if (actual.dtype() != dtype) {
    return ::testing::AssertionFailure() << "dtype " << DTypeName(actual.dtype()) << ", expected " << DTypeName(dtype);
  }
  if (actual.shape() != shape) {
    return ::testing::AssertionFailure() << "shape " << ShapeToString(actual.shape()) << ", expected "
                                         << ShapeToString(shape);
  }
  if (static_cast<size_t>(actual.NumElements()) != expected.size()) {
    return ::testing::AssertionFailure() << expected.size() << " expected values for " << actual.NumElements()
                                         << " elements";
  }
  Tensor want = Tensor::Zeros(dtype, shape);
  for (size_t i = 0; i < expected.size(); ++i) want.SetFromDouble(static_cast<int64_t>(i), expected[i]);
  std::optional<Tolerance> tolerance;
  if (IsFloatingPoint(dtype)) tolerance = Tolerance{relative};
  const Comparison comparison = CompareValues(actual, want, tolerance);
  if (!comparison.ok()) return ::testing::AssertionFailure() << comparison.first_mismatch;
  return ::testing::AssertionSuccess();
}

}  // namespace collage::op_test
